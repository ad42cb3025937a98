import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount } from '../../common/sql.js';
import type { Columns, Row } from '../../database/rows.js';
import { Administrators } from '../accounts/administrators.js';
import type { AuthUser } from '../auth-context.js';
import { USER_COLUMNS, toAuthUser, type UserRow } from '../accounts/users.repository.js';

/** How a session was started, shown on the account page beside its device and network. */
export type SignInMethod = 'password' | 'oidc' | 'email-code' | 'password-reset';

/** A session as the account page lists it. */
export interface SessionRecord {
  id: string;
  method: SignInMethod;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  ipPrefix: string | null;
}

/** SQL for the `sessions` table; cookie values reach it only as their digest. */
@Injectable()
export class SessionsRepository {
  constructor(
    private readonly db: DataSource,
    private readonly administrators: Administrators,
  ) {}

  /**
   * Inserts a session and stamps the user's last sign-in in the same statement; null when the
   * account is disabled. The stamp locks the user's row, so a sign-in and a disabling at once
   * take turns: the sign-in after it finds the account disabled, the one before it has its
   * session ended by it.
   */
  async insert(
    session: {
      tokenHash: string;
      userId: string;
      days: number;
      method: SignInMethod;
      userAgent: string | null;
      ipPrefix: string | null;
    },
    manager: EntityManager = this.db.manager,
  ): Promise<{ id: string; expiresAt: Date } | null> {
    const rows: Array<Columns<'sessions', 'id' | 'expires_at'>> = await manager.query(
      `WITH signed_in AS (UPDATE users SET last_sign_in_at = now() WHERE id = $2 AND disabled_at IS NULL RETURNING id)
       INSERT INTO sessions (token_hash, user_id, expires_at, method, user_agent, ip_prefix)
       SELECT $1, signed_in.id, now() + make_interval(days => $3), $4, $5, $6 FROM signed_in
       RETURNING id, expires_at`,
      [session.tokenHash, session.userId, session.days, session.method, session.userAgent, session.ipPrefix],
    );
    return rows[0] ? { id: rows[0].id, expiresAt: rows[0].expires_at } : null;
  }

  /** The unexpired session with this digest and its user; `seenLongAgo` when last_seen_at is older than the resolution. */
  async findLive(
    tokenHash: string,
    resolutionSeconds: number,
  ): Promise<{ sessionId: string; seenLongAgo: boolean; user: AuthUser } | null> {
    // s.id AS session_id; seen_long_ago is computed from s.last_seen_at.
    const rows: Array<UserRow & { session_id: Row<'sessions'>['id']; seen_long_ago: boolean }> = await this.db.query(
      `SELECT s.id AS session_id, s.last_seen_at < now() - make_interval(secs => $2) AS seen_long_ago, ${USER_COLUMNS}
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.parent_id IS NULL AND s.expires_at > now() AND u.disabled_at IS NULL`,
      [tokenHash, resolutionSeconds],
    );
    const row = rows[0];
    return row ? { sessionId: row.session_id, seenLongAgo: row.seen_long_ago, user: toAuthUser(row, this.administrators) } : null;
  }

  /**
   * The user of a render host's sign-in: the session with this digest that a console session
   * carried over, while both are unexpired and the account is enabled. A console session's
   * digest never matches here, nor a render sign-in's in `findLive`.
   */
  async findLiveRenderLogin(tokenHash: string): Promise<AuthUser | null> {
    const rows: UserRow[] = await this.db.query(
      `SELECT ${USER_COLUMNS}
       FROM sessions s JOIN sessions p ON p.id = s.parent_id JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at > now() AND p.expires_at > now() AND u.disabled_at IS NULL`,
      [tokenHash],
    );
    return rows[0] ? toAuthUser(rows[0], this.administrators) : null;
  }

  /**
   * Uses a carry-over ticket (once: its id goes into used_login_tickets) and, if the console
   * session it names is still live and its account enabled, starts the render host's session
   * under it, expiring with it at the latest. Null when the ticket was used before or the
   * console session is gone.
   */
  async insertRenderLogin(login: {
    ticketId: string;
    ticketExpiresAt: Date;
    parentId: string;
    tokenHash: string;
    seconds: number;
    userAgent: string | null;
    ipPrefix: string | null;
  }): Promise<{ id: string; expiresAt: Date } | null> {
    const rows: Array<Columns<'sessions', 'id' | 'expires_at'>> = await this.db.query(
      `WITH ticket AS (
         INSERT INTO used_login_tickets (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id
       ), parent AS (
         SELECT p.id, p.user_id, p.method, p.expires_at FROM sessions p JOIN users u ON u.id = p.user_id
         WHERE p.id = $3::uuid AND p.parent_id IS NULL AND p.expires_at > now() AND u.disabled_at IS NULL
           AND EXISTS (SELECT 1 FROM ticket)
       )
       INSERT INTO sessions (token_hash, user_id, expires_at, method, user_agent, ip_prefix, parent_id)
       SELECT $4, parent.user_id, least(now() + make_interval(secs => $5), parent.expires_at), parent.method, $6, $7, parent.id
       FROM parent
       RETURNING id, expires_at`,
      [login.ticketId, login.ticketExpiresAt, login.parentId, login.tokenHash, login.seconds, login.userAgent, login.ipPrefix],
    );
    return rows[0] ? { id: rows[0].id, expiresAt: rows[0].expires_at } : null;
  }

  /** Forgets used carry-over tickets that would have expired anyway; answers how many. */
  async deleteExpiredLoginTickets(): Promise<number> {
    return affectedCount(await this.db.query(`DELETE FROM used_login_tickets WHERE expires_at < now()`));
  }

  /** Guarded in SQL as well: of parallel requests of one session, at most one writes. */
  async touchLastSeen(sessionId: string, resolutionSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - make_interval(secs => $2)`,
      [sessionId, resolutionSeconds],
    );
  }

  /** The account's live sessions, newest first. */
  async listLive(userId: string): Promise<SessionRecord[]> {
    const rows: Array<
      Columns<'sessions', 'id' | 'method' | 'created_at' | 'last_seen_at' | 'user_agent' | 'ip_prefix', { method: SignInMethod }>
    > = await this.db.query(
      `SELECT id, method, created_at, last_seen_at, user_agent, ip_prefix FROM sessions
       WHERE user_id = $1 AND parent_id IS NULL AND expires_at > now() ORDER BY created_at DESC, id`,
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

  /** Deletes one session of the account; answers how many rows went (0 or 1). */
  async deleteOwn(userId: string, sessionId: string, manager: EntityManager = this.db.manager): Promise<number> {
    return affectedCount(await manager.query(`DELETE FROM sessions WHERE id = $1 AND user_id = $2`, [sessionId, userId]));
  }

  /** Deletes every session of the account but one, in the caller's transaction when given; answers how many. */
  async deleteOthers(userId: string, keepSessionId: string, manager: EntityManager = this.db.manager): Promise<number> {
    return affectedCount(await manager.query(`DELETE FROM sessions WHERE user_id = $1 AND id <> $2`, [userId, keepSessionId]));
  }

  /** Deletes up to `batch` expired sessions; answers how many. */
  async deleteExpiredBatch(batch: number): Promise<number> {
    return affectedCount(
      await this.db.query(`DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= now() LIMIT $1)`, [
        batch,
      ]),
    );
  }

  async delete(sessionId: string, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(`DELETE FROM sessions WHERE id = $1`, [sessionId]);
  }
}
