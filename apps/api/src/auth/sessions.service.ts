import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount } from '../common/sql.js';
import type { AuthUser } from './auth-context.js';
import { USER_COLUMNS, toAuthUser } from './users.repository.js';
import { randomToken, sha256Hex } from './secrets.js';

export const SESSION_COOKIE = 'sharedown_session';
export const SESSION_DAYS = 30;

/** How a session was started, shown on the account page beside its device and network. */
export type SignInMethod = 'password' | 'oidc' | 'email-code' | 'password-reset';

/** Where a session was started from: the browser and a masked network prefix, never a full address. */
export interface SessionOrigin {
  method: SignInMethod;
  userAgent?: string;
  ipPrefix?: string;
}

/** Console sessions: a random cookie value, kept in PostgreSQL only as its digest. */
@Injectable()
export class SessionsService {
  constructor(private readonly db: DataSource) {}

  async create(userId: string, origin: SessionOrigin): Promise<{ id: string; cookieValue: string; expiresAt: Date }> {
    const cookieValue = randomToken(32);
    const rows: Array<{ id: string; expires_at: Date }> = await this.db.query(
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
    return { id: rows[0]!.id, cookieValue, expiresAt: rows[0]!.expires_at };
  }

  async resolve(cookieValue: string | undefined): Promise<{ sessionId: string; user: AuthUser } | null> {
    if (!cookieValue || cookieValue.length > 100) return null;
    const rows: Array<Parameters<typeof toAuthUser>[0] & { session_id: string }> = await this.db.query(
      `SELECT s.id AS session_id, ${USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [sha256Hex(cookieValue)],
    );
    return rows[0] ? { sessionId: rows[0].session_id, user: toAuthUser(rows[0]) } : null;
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
}
