import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from './auth-context.js';
import { SessionsRepository, type SessionRecord, type SignInMethod } from './sessions.repository.js';
import { randomToken, sha256Hex } from './secrets.js';

export const SESSION_COOKIE = 'sharedown_session';
export const SESSION_DAYS = 30;
// last_seen_at is written at most this often per session, not on every request.
const LAST_SEEN_RESOLUTION_SECONDS = 60;

export type { SessionRecord, SignInMethod } from './sessions.repository.js';

/** Where a session was started from: the browser and a masked network prefix, never a full address. */
export interface SessionOrigin {
  method: SignInMethod;
  userAgent?: string;
  ipPrefix?: string;
}

/** Console sessions: a random cookie value, kept in PostgreSQL only as its digest. */
@Injectable()
export class SessionsService {
  constructor(private readonly sessions: SessionsRepository) {}

  async create(userId: string, origin: SessionOrigin): Promise<{ id: string; cookieValue: string; expiresAt: Date }> {
    const cookieValue = randomToken(32);
    const { id, expiresAt } = await this.sessions.insert({
      tokenHash: sha256Hex(cookieValue),
      userId,
      days: SESSION_DAYS,
      method: origin.method,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
      ipPrefix: origin.ipPrefix ?? null,
    });
    return { id, cookieValue, expiresAt };
  }

  async resolve(cookieValue: string | undefined): Promise<{ sessionId: string; user: AuthUser } | null> {
    if (!cookieValue || cookieValue.length > 100) return null;
    const found = await this.sessions.findLive(sha256Hex(cookieValue), LAST_SEEN_RESOLUTION_SECONDS);
    if (!found) return null;
    if (found.seenLongAgo) await this.sessions.touchLastSeen(found.sessionId, LAST_SEEN_RESOLUTION_SECONDS);
    return { sessionId: found.sessionId, user: found.user };
  }

  /** The account's live sessions, newest first. */
  list(userId: string): Promise<SessionRecord[]> {
    return this.sessions.listLive(userId);
  }

  /** Ends one session of the account; false when it has no such session. */
  async endOwn(userId: string, sessionId: string): Promise<boolean> {
    return (await this.sessions.deleteOwn(userId, sessionId)) === 1;
  }

  /** Ends every session of the account but `keepSessionId` (inside `manager`'s transaction when given); answers how many. */
  endOthers(userId: string, keepSessionId: string, manager?: EntityManager): Promise<number> {
    return this.sessions.deleteOthers(userId, keepSessionId, manager);
  }

  /** Deletes expired sessions in batches; answers how many. */
  async deleteExpired(batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.sessions.deleteExpiredBatch(batch);
      total += count;
      if (count < batch) return total;
    }
  }

  async destroy(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }
}
