import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rows } from '../../common/sql.js';
import type { Columns, Row } from '../../database/rows.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../../database/named-statements.js';
import {
  containsPattern,
  cursorTimeSql,
  newestFirstAfterSql,
  type NewestFirstKey,
  type PageRequest,
} from '../../common/page-cursor.js';
import { Administrators } from '../accounts/administrators.js';
import type { AuthUser, WorkspaceRole } from '../auth-context.js';
import type { TokenScope } from './token-scope.js';
import { USER_COLUMNS, toAuthUser, type UserRow } from '../accounts/users.repository.js';

export interface ApiTokenView {
  id: string;
  name: string;
  prefix: string;
  rateLimitPerMinute: number;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: TokenScope[];
  expiresAt: string | null;
}

/** TOKEN_COLUMNS. */
export type TokenRow = Columns<
  'api_tokens',
  'id' | 'name' | 'prefix' | 'rate_limit_per_minute' | 'created_at' | 'last_used_at' | 'revoked_at' | 'scopes' | 'expires_at',
  { scopes: TokenScope[] }
>;

export const TOKEN_COLUMNS = 'id, name, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at, scopes, expires_at';

export function toTokenView(row: TokenRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    scopes: row.scopes,
    expiresAt: row.expires_at?.toISOString() ?? null,
  };
}

/** A live (unrevoked) token found by its prefix, with its owner. */
export interface TokenByPrefix {
  tokenId: string;
  secretHash: string;
  rateLimitPerMinute: number;
  scopes: TokenScope[];
  /** Epoch milliseconds, or null for a token that never expires; judged against the clock at each use. */
  expiresAt: number | null;
  /** The workspace it acts in: its creator's account (a personal workspace) or a shared workspace. */
  user: AuthUser;
  /** The account it acts as: its creator, a member of `user` with `role` now. */
  actor: AuthUser;
  role: WorkspaceRole;
}

/** The token's creator's columns, as `toAuthUser` reads them, prefixed `actor_`. */
const ACTOR_COLUMNS = `c.id AS actor_id, coalesce(c.email, '') AS actor_email, c.segment AS actor_segment,
  c.quota_bytes AS actor_quota_bytes, c.used_bytes AS actor_used_bytes, c.email_verified_at IS NOT NULL AS actor_email_verified,
  c.password_hash IS NOT NULL AS actor_has_password, c.totp_enabled_at IS NOT NULL AS actor_two_factor_enabled,
  c.role = 'admin' AS actor_admin_role`;

function actorRow(row: Record<string, unknown>): UserRow {
  const actor: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith('actor_')) actor[key.slice(6)] = value;
  return actor as unknown as UserRow;
}

export type PagedTokenRow = TokenRow & { cursor_time: string };

/** SQL for the `api_tokens` table. */
@Injectable()
export class ApiTokensRepository {
  // Every bearer call looks its token up: a named prepared statement, planned once per connection.
  private readonly pool: NamedStatementPool | null;

  constructor(
    private readonly db: DataSource,
    private readonly administrators: Administrators,
  ) {
    this.pool = namedStatementPool(db);
  }

  async list(userId: string): Promise<ApiTokenView[]> {
    const rows: TokenRow[] = await this.db.query(
      `SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return rows.map(toTokenView);
  }

  /** Inserts a token under `prefix`; null when the prefix is taken (ON CONFLICT DO NOTHING). */
  async insert(
    token: {
      userId: string;
      name: string;
      prefix: string;
      secretHash: string;
      rateLimitPerMinute: number;
      scopes: TokenScope[];
      expiresInDays: number | null;
      /** The account the token acts as (its creator); the owner itself in a personal workspace. */
      createdBy?: string;
    },
    manager: EntityManager = this.db.manager,
  ): Promise<ApiTokenView | null> {
    const rows: TokenRow[] = await manager.query(
      `INSERT INTO api_tokens (user_id, name, prefix, secret_hash, rate_limit_per_minute, scopes, expires_at, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(days => $7::int) END, $8)
       ON CONFLICT (prefix) DO NOTHING
       RETURNING ${TOKEN_COLUMNS}`,
      [
        token.userId,
        token.name,
        token.prefix,
        token.secretHash,
        token.rateLimitPerMinute,
        token.scopes,
        token.expiresInDays,
        token.createdBy ?? token.userId,
      ],
    );
    return rows[0] ? toTokenView(rows[0]) : null;
  }

  /** Revokes once (a second revocation keeps the first time); null when the user has no such token. */
  async revoke(userId: string, tokenId: string, manager: EntityManager = this.db.manager): Promise<ApiTokenView | null> {
    const updated = await rows<TokenRow>(
      manager,
      `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id::text = $2 AND user_id = $1
       RETURNING ${TOKEN_COLUMNS}`,
      [userId, tokenId],
    );
    return updated[0] ? toTokenView(updated[0]) : null;
  }

  /**
   * The unrevoked token with this prefix (expired or not), the workspace it acts in and the account
   * it acts as, with that account's role there now. Null when the token, its workspace or its
   * creator is revoked or disabled, or the creator is no longer a member of the workspace.
   */
  async findLiveByPrefix(prefix: string): Promise<TokenByPrefix | null> {
    const rows: Array<
      UserRow &
        Columns<'api_tokens', 'secret_hash' | 'rate_limit_per_minute' | 'scopes' | 'expires_at', { scopes: TokenScope[] }> & {
          /** t.id AS token_id. */
          token_id: Row<'api_tokens'>['id'];
          /** Computed: the creator's role in the workspace, OWNER in a personal one. */
          member_role: WorkspaceRole;
          /** c.id AS actor_id (ACTOR_COLUMNS). */
          actor_id: Row<'users'>['id'];
        }
    > = await namedQuery(
      this.db,
      this.pool,
      'auth_token_identity',
      `SELECT t.id AS token_id, t.secret_hash, t.rate_limit_per_minute, t.scopes, t.expires_at,
              ${USER_COLUMNS}, ${ACTOR_COLUMNS},
              CASE WHEN u.kind = 'person' THEN 'OWNER' ELSE m.role END AS member_role
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       JOIN users c ON c.id = coalesce(t.created_by, t.user_id) AND c.disabled_at IS NULL
       LEFT JOIN workspace_members m ON m.workspace_id = t.user_id AND m.user_id = t.created_by
       WHERE t.prefix = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL AND (u.kind = 'person' OR m.role IS NOT NULL)`,
      [prefix],
    );
    const row = rows[0];
    if (!row) return null;
    const user = toAuthUser(row, this.administrators);
    return {
      tokenId: row.token_id,
      secretHash: row.secret_hash,
      rateLimitPerMinute: row.rate_limit_per_minute,
      scopes: row.scopes,
      expiresAt: row.expires_at?.getTime() ?? null,
      user,
      actor:
        row.actor_id === row.id ? user : toAuthUser(actorRow(row as unknown as Record<string, unknown>), this.administrators),
      role: row.member_role,
    };
  }

  async touchLastUsed(tokenId: string): Promise<void> {
    await this.db.query(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [tokenId]);
  }

  /** One page and one row more (so the caller knows whether another page follows); `q` matches name or prefix. */
  async page(userId: string, q: string | undefined, page: PageRequest<NewestFirstKey>): Promise<PagedTokenRow[]> {
    const params: unknown[] = [userId];
    const where = ['user_id = $1'];
    if (q) {
      params.push(containsPattern(q));
      where.push(`(name ILIKE $${params.length} OR prefix ILIKE $${params.length})`);
    }
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length));
    }
    params.push(page.limit + 1);
    return this.db.query(
      `SELECT ${TOKEN_COLUMNS}, ${cursorTimeSql('created_at')} AS cursor_time FROM api_tokens
       WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
  }

  async count(userId: string, q: string | undefined): Promise<number> {
    const [row]: Array<{ total: number }> = await this.db.query(
      `SELECT count(*)::int AS total FROM api_tokens
       WHERE user_id = $1 AND ($2::text IS NULL OR name ILIKE $2 OR prefix ILIKE $2)`,
      [userId, q ? containsPattern(q) : null],
    );
    return row!.total;
  }
}
