import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount, rows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';
import {
  containsPattern,
  cursorTimeSql,
  newestFirstAfterSql,
  type NewestFirstKey,
  type PageRequest,
} from '../common/page-cursor.js';
import type { Administrators } from '../auth/accounts/administrators.js';

/** An account as the administrators' pages show it. */
/** ADMIN_USER_COLUMNS: the account's own columns, and computed ones. */
export type AdminUserRow = Columns<
  'users',
  'id' | 'email' | 'segment' | 'disabled_at' | 'quota_bytes' | 'used_bytes' | 'created_at' | 'last_sign_in_at',
  // The list shows people only (u.kind = 'person'), who have an e-mail address.
  { email: string }
> & {
  /** Computed: u.role = 'admin'. */
  admin_role: boolean;
  /** Computed: u.email_verified_at IS NOT NULL. */
  email_verified: boolean;
  /** Computed: count(*)::int of the account's live files. */
  file_count: number;
  /** Computed: count(*)::int of the account's shares. */
  share_count: number;
  /** Computed: cursorTimeSql('u.created_at'). */
  cursor_time: string;
};

/** The account row an administrator's change locks and judges. */
export interface LockedAccount {
  id: string;
  email: string;
  emailVerified: boolean;
  adminRole: boolean;
  disabled: boolean;
}

// Counts of live files (not in the trash) and of shares, read with the account.
const ADMIN_USER_COLUMNS = `u.id, u.email, u.segment, u.role = 'admin' AS admin_role,
  u.email_verified_at IS NOT NULL AS email_verified, u.disabled_at, u.quota_bytes, u.used_bytes,
  (SELECT count(*)::int FROM files f WHERE f.user_id = u.id AND f.deleted_at IS NULL) AS file_count,
  (SELECT count(*)::int FROM shares s WHERE s.user_id = u.id) AS share_count,
  u.created_at, u.last_sign_in_at, ${cursorTimeSql('u.created_at')} AS cursor_time`;

/**
 * One page of `users` rows of one kind (aliased `u`), newest first, and one row more: the
 * administrators' lists of accounts and of shared workspaces. `q` matches any of `searched`.
 */
export async function newestUsersPage<Row>(
  db: DataSource,
  list: { columns: string; kind: 'person' | 'workspace'; searched: readonly string[] },
  q: string | undefined,
  page: PageRequest<NewestFirstKey>,
): Promise<Row[]> {
  const params: unknown[] = [list.kind];
  const where: string[] = ['u.kind = $1'];
  if (q) {
    params.push(containsPattern(q));
    where.push(`(${list.searched.map((column) => `u.${column} ILIKE $${params.length}`).join(' OR ')})`);
  }
  if (page.after) {
    params.push(page.after.createdAt, page.after.id);
    where.push(newestFirstAfterSql(params.length - 1, params.length, 'u.'));
  }
  params.push(page.limit + 1);
  return rows<Row>(
    db,
    `SELECT ${list.columns} FROM users u WHERE ${where.join(' AND ')}
     ORDER BY u.created_at DESC, u.id DESC LIMIT $${params.length}`,
    params,
  );
}

/** SQL of the administrators' account management: the `users` table seen across every account. */
@Injectable()
export class AdminUsersRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Takes the instance's administration lock (a transaction-level advisory lock) for the
   * caller's transaction: every change that can take an administrator away (disabling,
   * deleting) holds it, so two of them at once are judged one after the other and never leave
   * the instance without one.
   */
  async lockAdministration(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('sharedown:administration'))`);
  }

  /** The account, its row locked for the caller's transaction; null when there is none. */
  async lockAccount(manager: EntityManager, userId: string): Promise<LockedAccount | null> {
    const found = await rows<{ id: string; email: string; email_verified: boolean; admin_role: boolean; disabled: boolean }>(
      manager,
      `SELECT id, email, email_verified_at IS NOT NULL AS email_verified, role = 'admin' AS admin_role,
              disabled_at IS NOT NULL AS disabled
       FROM users WHERE id = $1 FOR UPDATE`,
      [userId],
    );
    const row = found[0];
    return row
      ? { id: row.id, email: row.email, emailVerified: row.email_verified, adminRole: row.admin_role, disabled: row.disabled }
      : null;
  }

  /**
   * Administrators as `administrators` judges them (Administrators.isAdmin, here in SQL) that are
   * not disabled, other than `exceptUserId`.
   */
  async countActiveAdministrators(manager: EntityManager, administrators: Administrators, exceptUserId: string): Promise<number> {
    const [row] = await rows<{ total: number }>(
      manager,
      `SELECT count(*)::int AS total FROM users
       WHERE disabled_at IS NULL AND id <> $2
         AND CASE WHEN email_verified_at IS NOT NULL THEN role = 'admin' OR lower(email) = ANY($1::text[])
                  ELSE role = 'admin' AND NOT $3::boolean END`,
      [administrators.addresses, exceptUserId, administrators.founderNeedsProof],
    );
    return row!.total;
  }

  /** Disables or re-enables the account; answers whether it changed. */
  async setDisabled(manager: EntityManager, userId: string, disabled: boolean): Promise<boolean> {
    const result = await manager.query(
      disabled
        ? `UPDATE users SET disabled_at = now() WHERE id = $1 AND disabled_at IS NULL`
        : `UPDATE users SET disabled_at = NULL WHERE id = $1 AND disabled_at IS NOT NULL`,
      [userId],
    );
    return affectedCount(result) === 1;
  }

  /** Ends every session of the account; answers how many. */
  async endSessions(manager: EntityManager, userId: string): Promise<number> {
    return affectedCount(await manager.query(`DELETE FROM sessions WHERE user_id = $1`, [userId]));
  }

  /** Sets the quota; the previous one, or null when there is no such account. */
  async setQuota(manager: EntityManager, userId: string, quotaBytes: number): Promise<number | null> {
    const found = await rows<{ previous: string }>(
      manager,
      `UPDATE users u SET quota_bytes = $2 FROM (SELECT id, quota_bytes AS previous FROM users WHERE id = $1 FOR UPDATE) old
       WHERE u.id = old.id RETURNING old.previous`,
      [userId, quotaBytes],
    );
    return found[0] ? Number(found[0].previous) : null;
  }

  /**
   * Deletes the account; every row it owns (files and their versions, folders, shares and their
   * visits, tokens, webhooks and their deliveries, sessions, identities, codes, its audit trail)
   * goes with it through the foreign keys' ON DELETE CASCADE. Answers whether it existed.
   */
  async delete(manager: EntityManager, userId: string): Promise<boolean> {
    return affectedCount(await manager.query(`DELETE FROM users WHERE id = $1`, [userId])) === 1;
  }

  /** An account (a shared workspace's row is no account: it is managed under /api/admin/workspaces). */
  async find(userId: string, manager: EntityManager = this.db.manager): Promise<AdminUserRow | null> {
    const found = await rows<AdminUserRow>(
      manager,
      `SELECT ${ADMIN_USER_COLUMNS} FROM users u WHERE u.id = $1 AND u.kind = 'person'`,
      [userId],
    );
    return found[0] ?? null;
  }

  /** One page, newest accounts first, and one row more; `q` matches the e-mail or the segment. */
  async page(q: string | undefined, page: PageRequest<NewestFirstKey>): Promise<AdminUserRow[]> {
    // Accounts only: a shared workspace's owner row is listed with the workspaces.
    return newestUsersPage<AdminUserRow>(
      this.db,
      { columns: ADMIN_USER_COLUMNS, kind: 'person', searched: ['email', 'segment'] },
      q,
      page,
    );
  }
}
