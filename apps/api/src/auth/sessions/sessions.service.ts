import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import type { AuthUser } from '../auth-context.js';
import { SessionsRepository, type SessionRecord, type SignInMethod } from './sessions.repository.js';
import { randomToken, sha256Hex } from '../secrets.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';

export const SESSION_COOKIE = 'sharedown_session';
export const SESSION_DAYS = 30;
/** What a disabled account hears when it tries to sign in, by any way. */
export const ACCOUNT_DISABLED_MESSAGE = '账户已停用，请联系本服务的管理员';
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
  constructor(
    private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditLog,
  ) {}

  async create(userId: string, origin: SessionOrigin): Promise<{ id: string; cookieValue: string; expiresAt: Date }> {
    const cookieValue = randomToken(32);
    const { id, expiresAt } = await this.db.transaction(async (manager) => {
      const created = await this.sessions.insert(
        {
          tokenHash: sha256Hex(cookieValue),
          userId,
          days: SESSION_DAYS,
          method: origin.method,
          userAgent: origin.userAgent?.slice(0, 512) ?? null,
          ipPrefix: origin.ipPrefix ?? null,
        },
        manager,
      );
      if (!created) throw new AppError(ErrorCode.FORBIDDEN, ACCOUNT_DISABLED_MESSAGE);
      await this.audit.within(manager, {
        userId,
        action: AuditAction.signInSucceeded,
        targetId: created.id,
        details: { method: origin.method },
        ipPrefix: origin.ipPrefix ?? null,
      });
      return created;
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

  /** The user of a render host's sign-in cookie (see `startRenderLogin`), or null. */
  async resolveRenderLogin(cookieValue: string | undefined): Promise<AuthUser | null> {
    if (!cookieValue || cookieValue.length > 100) return null;
    return this.sessions.findLiveRenderLogin(sha256Hex(cookieValue));
  }

  /**
   * Trades a used-once carry-over ticket for a sign-in on a separate render host: a session of
   * its own under the console session `parentId`, which ends with it. Null when the ticket was
   * used before, or the console session has ended or its account is disabled.
   */
  async startRenderLogin(ticket: {
    id: string;
    expiresAt: Date;
    parentId: string;
    seconds: number;
    userAgent?: string;
    ipPrefix?: string;
  }): Promise<{ cookieValue: string; expiresAt: Date } | null> {
    const cookieValue = randomToken(32);
    try {
      const started = await this.sessions.insertRenderLogin({
        ticketId: ticket.id,
        ticketExpiresAt: ticket.expiresAt,
        parentId: ticket.parentId,
        tokenHash: sha256Hex(cookieValue),
        seconds: ticket.seconds,
        userAgent: ticket.userAgent?.slice(0, 512) ?? null,
        ipPrefix: ticket.ipPrefix ?? null,
      });
      return started ? { cookieValue, expiresAt: started.expiresAt } : null;
    } catch (error) {
      // The console session was deleted while its ticket was being used (foreign key): it has ended.
      if ((error as { code?: string }).code === '23503') return null;
      throw error;
    }
  }

  /** Forgets used carry-over tickets past their expiry; answers how many. */
  deleteExpiredLoginTickets(): Promise<number> {
    return this.sessions.deleteExpiredLoginTickets();
  }

  /** The account's live sessions, newest first (a render host's sign-in is part of the session it came from). */
  list(userId: string): Promise<SessionRecord[]> {
    return this.sessions.listLive(userId);
  }

  /** Ends one session of the account; false when it has no such session. */
  async endOwn(userId: string, sessionId: string): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const ended = (await this.sessions.deleteOwn(userId, sessionId, manager)) === 1;
      if (ended) await this.audit.within(manager, { userId, action: AuditAction.sessionEnded, targetId: sessionId });
      return ended;
    });
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

  /** Signing out: the session ends and the account's trail says so, together. */
  async signOut(userId: string, sessionId: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      await this.sessions.delete(sessionId, manager);
      await this.audit.within(manager, { userId, action: AuditAction.signedOut, targetId: sessionId });
    });
  }

  /** Every other session of the account ends ("sign out everywhere else"); answers how many. */
  async endOthersOnRequest(userId: string, keepSessionId: string): Promise<number> {
    return this.db.transaction(async (manager) => {
      const ended = await this.endOthers(userId, keepSessionId, manager);
      await this.audit.within(manager, { userId, action: AuditAction.otherSessionsEnded, details: { ended } });
      return ended;
    });
  }
}
