import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount } from '../common/sql.js';
import type { AuthUser } from './auth-context.js';
import { USER_COLUMNS, toAuthUser } from './users.repository.js';
import { randomToken, sha256Hex } from './secrets.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';

export const SESSION_COOKIE = 'sharedown_session';
export const SESSION_DAYS = 30;
// last_seen_at is written at most this often per session, not on every request.
const LAST_SEEN_RESOLUTION_SECONDS = 60;

/** How a session was started, shown on the account page beside its device and network. */
export type SignInMethod = 'password' | 'oidc' | 'email-code' | 'password-reset';

/** Where a session was started from: the browser and a masked network prefix, never a full address. */
export interface SessionOrigin {
  method: SignInMethod;
  userAgent?: string;
  ipPrefix?: string;
}

/** A session as the account page lists it. */
export interface SessionRecord {
  id: string;
  method: SignInMethod;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  ipPrefix: string | null;
}

/** Console sessions: a random cookie value, kept in PostgreSQL only as its digest. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLog,
  ) {}

  async create(userId: string, origin: SessionOrigin): Promise<{ id: string; cookieValue: string; expiresAt: Date }> {
    const cookieValue = randomToken(32);
    const rows: Array<{ id: string; expires_at: Date }> = await this.db.transaction(async (manager) => {
      const created: Array<{ id: string; expires_at: Date }> = await manager.query(
        `WITH signed_in AS (UPDATE users SET last_sign_in_at = now() WHERE id = $2)
       INSERT INTO sessions (token_hash, user_id, expires_at, method, user_agent, ip_prefix)
       VALUES ($1, $2, now() + make_interval(days => $3), $4, $5, $6)
       RETURNING id, expires_at`,
        [
          sha256Hex(cookieValue),
          userId,
          SESSION_DAYS,
          origin.method,
          origin.userAgent?.slice(0, 512) ?? null,
          origin.ipPrefix ?? null,
        ],
      );
      await this.audit.within(manager, {
        userId,
        action: AuditAction.signInSucceeded,
        targetId: created[0]!.id,
        details: { method: origin.method },
        ipPrefix: origin.ipPrefix ?? null,
      });
      return created;
    });
    return { id: rows[0]!.id, cookieValue, expiresAt: rows[0]!.expires_at };
  }

  async resolve(cookieValue: string | undefined): Promise<{ sessionId: string; user: AuthUser } | null> {
    if (!cookieValue || cookieValue.length > 100) return null;
    const rows: Array<Parameters<typeof toAuthUser>[0] & { session_id: string; seen_long_ago: boolean }> = await this.db.query(
      `SELECT s.id AS session_id, s.last_seen_at < now() - make_interval(secs => $2) AS seen_long_ago, ${USER_COLUMNS}
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [sha256Hex(cookieValue), LAST_SEEN_RESOLUTION_SECONDS],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.seen_long_ago) {
      // Guarded again in SQL: of parallel requests of one session, at most one writes.
      await this.db.query(
        `UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - make_interval(secs => $2)`,
        [row.session_id, LAST_SEEN_RESOLUTION_SECONDS],
      );
    }
    return { sessionId: row.session_id, user: toAuthUser(row) };
  }

  /** The account's live sessions, newest first. */
  async list(userId: string): Promise<SessionRecord[]> {
    const rows: Array<{
      id: string;
      method: SignInMethod;
      created_at: Date;
      last_seen_at: Date;
      user_agent: string | null;
      ip_prefix: string | null;
    }> = await this.db.query(
      `SELECT id, method, created_at, last_seen_at, user_agent, ip_prefix FROM sessions
       WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC, id`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      method: row.method,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      userAgent: row.user_agent,
      ipPrefix: row.ip_prefix,
    }));
  }

  /** Ends one session of the account; false when it has no such session. */
  async endOwn(userId: string, sessionId: string): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const ended =
        affectedCount(await manager.query(`DELETE FROM sessions WHERE id = $1 AND user_id = $2`, [sessionId, userId])) === 1;
      if (ended) await this.audit.within(manager, { userId, action: AuditAction.sessionEnded, targetId: sessionId });
      return ended;
    });
  }

  /** Ends every session of the account but `keepSessionId`; answers how many. */
  async endOthers(userId: string, keepSessionId: string, manager: EntityManager = this.db.manager): Promise<number> {
    return affectedCount(await manager.query(`DELETE FROM sessions WHERE user_id = $1 AND id <> $2`, [userId, keepSessionId]));
  }

  /** Deletes expired sessions in batches; answers how many. */
  async deleteExpired(batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = affectedCount(
        await this.db.query(`DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= now() LIMIT $1)`, [
          batch,
        ]),
      );
      total += count;
      if (count < batch) return total;
    }
  }

  async destroy(sessionId: string): Promise<void> {
    await this.db.query(`DELETE FROM sessions WHERE id = $1`, [sessionId]);
  }

  /** Signing out: the session ends and the account's trail says so, together. */
  async signOut(userId: string, sessionId: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      await manager.query(`DELETE FROM sessions WHERE id = $1`, [sessionId]);
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
