import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount } from '../../common/sql.js';
import type { Columns } from '../../database/rows.js';
import { Administrators } from './administrators.js';
import type { AuthUser } from '../auth-context.js';

/** USER_COLUMNS: the account's own columns, and computed ones. */
export type UserRow = Columns<
  'users',
  'id' | 'email' | 'segment' | 'quota_bytes' | 'used_bytes',
  // coalesce(u.email, ''): a shared workspace has no e-mail.
  { email: string }
> & {
  /** Computed: u.email_verified_at IS NOT NULL. */
  email_verified: boolean;
  /** Computed: u.password_hash IS NOT NULL. */
  has_password: boolean;
  /** Computed: u.totp_enabled_at IS NOT NULL. */
  two_factor_enabled: boolean;
  /** Computed: u.role = 'admin'. */
  admin_role: boolean;
};

/** The account as a request sees it; `administrators` judges its rights from its row and the configuration. */
export function toAuthUser(row: UserRow, administrators: Administrators): AuthUser {
  return {
    id: row.id,
    email: row.email,
    segment: row.segment,
    quotaBytes: Number(row.quota_bytes),
    usedBytes: Number(row.used_bytes),
    emailVerified: row.email_verified,
    hasPassword: row.has_password,
    twoFactorEnabled: row.two_factor_enabled,
    isAdmin: administrators.isAdmin({ email: row.email, emailVerified: row.email_verified, adminRole: row.admin_role }),
  };
}

// A shared workspace's row has no e-mail: as an AuthUser (the owner of the objects) it reads as ''.
export const USER_COLUMNS = `u.id, coalesce(u.email, '') AS email, u.segment, u.quota_bytes, u.used_bytes,
  u.email_verified_at IS NOT NULL AS email_verified, u.password_hash IS NOT NULL AS has_password,
  u.totp_enabled_at IS NOT NULL AS two_factor_enabled, u.role = 'admin' AS admin_role`;

@Injectable()
export class UsersRepository {
  constructor(
    private readonly db: DataSource,
    private readonly administrators: Administrators,
  ) {}

  async findById(id: string, manager: EntityManager = this.db.manager): Promise<AuthUser | null> {
    const rows: UserRow[] = await manager.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
    return rows[0] ? toAuthUser(rows[0], this.administrators) : null;
  }

  async findCredentials(email: string): Promise<(AuthUser & { passwordHash: string | null }) | null> {
    const rows: Array<UserRow & Columns<'users', 'password_hash'>> = await this.db.query(
      `SELECT ${USER_COLUMNS}, u.password_hash FROM users u WHERE lower(u.email) = lower($1)`,
      [email],
    );
    return rows[0] ? { ...toAuthUser(rows[0], this.administrators), passwordHash: rows[0].password_hash } : null;
  }

  async segmentTaken(segment: string, exceptUserId?: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM users WHERE lower(segment) = lower($1) AND id IS DISTINCT FROM $2`, [
      segment,
      exceptUserId ?? null,
    ]);
    return rows.length > 0;
  }

  /**
   * Inserts the user; returns null when the e-mail or segment is already taken. A null password
   * makes an account that signs in another way (single sign-on, e-mail code) until it sets one.
   * The first account of the instance is its administrator: its statement inserts the founded
   * settings row and gives the role to the account it did so for; a parallel first registration
   * meets that row's key, waits for it and finds it founded. Once founded, the statement touches
   * (and locks) no settings row, so later registrations do not queue on it. No account at all is
   * asked too, for an instance restored from a backup made before the row existed.
   */
  async insert(
    email: string,
    segment: string,
    passwordHash: string | null,
    quotaBytes: number,
    options: { emailVerified?: boolean; manager?: EntityManager } = {},
  ): Promise<AuthUser | null> {
    const rows: UserRow[] = await (options.manager ?? this.db.manager).query(
      `WITH founder AS (
         INSERT INTO instance_settings AS st (id, founded)
         SELECT true, true WHERE NOT EXISTS (SELECT 1 FROM instance_settings WHERE founded)
         ON CONFLICT (id) DO UPDATE SET founded = true WHERE NOT st.founded
         RETURNING true AS first)
       INSERT INTO users AS u (email, segment, password_hash, quota_bytes, email_verified_at, role)
       VALUES ($1, $2, $3, $4, CASE WHEN $5::boolean THEN now() END,
               CASE WHEN EXISTS (SELECT 1 FROM founder) AND NOT EXISTS (SELECT 1 FROM users) THEN 'admin' ELSE 'user' END)
       ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
      [email, segment, passwordHash, quotaBytes, options.emailVerified ?? false],
    );
    return rows[0] ? toAuthUser(rows[0], this.administrators) : null;
  }

  async emailExists(email: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email]);
    return rows.length > 0;
  }

  /** Returns false when another user holds the segment. */
  async updateSegment(userId: string, segment: string): Promise<boolean> {
    try {
      await this.db.query(`UPDATE users SET segment = $2 WHERE id = $1`, [userId, segment]);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return false;
      throw error;
    }
  }

  /**
   * Sets a new password hash only over `previousHash` (null: the account had none), in the caller's
   * transaction: of two changes at once, the second finds the hash gone. False when it was.
   */
  async replacePasswordHash(
    manager: EntityManager,
    userId: string,
    previousHash: string | null,
    nextHash: string,
  ): Promise<boolean> {
    const result = await manager.query(
      `UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash IS NOT DISTINCT FROM $2`,
      [userId, previousHash, nextHash],
    );
    return affectedCount(result) === 1;
  }
}
