import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError } from '../common/app-error.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../database/named-statements.js';
import { rows } from '../common/sql.js';
import type { AuthUser } from './auth-context.js';
import type { TokenScope } from './token-scope.js';
import { USER_COLUMNS, toAuthUser } from './users.repository.js';
import { equalHex, sha256Hex } from './secrets.js';

export const TOKEN_SERVICE_PREFIX = 'shd';
const TOKEN_SCOPE_ORDER: TokenScope[] = ['read', 'write'];
const TOKEN_PATTERN = /^shd_([a-z0-9]{12})_([A-Za-z0-9]{43,64})$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

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

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  rate_limit_per_minute: number;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  scopes: TokenScope[];
  expires_at: Date | null;
}

const TOKEN_COLUMNS = 'id, name, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at, scopes, expires_at';

function toView(row: TokenRow): ApiTokenView {
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

/** Base62 without modulo bias: 43 characters carry 256 bits. */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function randomPrefix(): string {
  return randomBytes(9)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .padEnd(12, '0')
    .slice(0, 12);
}

export interface TokenIdentity {
  tokenId: string;
  rateLimitPerMinute: number;
  scopes: TokenScope[];
  user: AuthUser;
}

// The contract's default bucket for a token created without a rate.
export const DEFAULT_TOKEN_RATE_PER_MINUTE = 5;

/** A token to create; what is left out gets the contract's defaults (5 a minute, read and write, no expiry). */
export interface NewToken {
  name: string;
  rateLimitPerMinute?: number;
  scopes?: TokenScope[];
  expiresInDays?: number | null;
}

/** Why a presented token does not authenticate; the guard words its answer after it. */
export type TokenRefusal = 'invalid' | 'expired';

/** API tokens `shd_<prefix>_<secret>`: looked up by prefix, the secret kept as a SHA-256 digest. */
@Injectable()
export class ApiTokensService {
  // lastUsedAt is written at most once a minute per token and process, so the hot path rarely writes.
  private readonly lastTouched = new Map<string, number>();

  // Every bearer call looks its token up: a named prepared statement, planned once per connection.
  private readonly pool: NamedStatementPool | null;

  constructor(private readonly db: DataSource) {
    this.pool = namedStatementPool(db);
  }

  async list(userId: string): Promise<ApiTokenView[]> {
    const rows: TokenRow[] = await this.db.query(
      `SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC`,
      [userId],
    );
    return rows.map(toView);
  }

  async create(userId: string, input: NewToken): Promise<{ token: ApiTokenView; plaintext: string }> {
    // Always stored in the same order, so ["write","read"] and ["read","write"] are one thing.
    const requested = input.scopes ?? TOKEN_SCOPE_ORDER;
    const scopes = TOKEN_SCOPE_ORDER.filter((scope) => requested.includes(scope));
    const rate = input.rateLimitPerMinute ?? DEFAULT_TOKEN_RATE_PER_MINUTE;
    const secret = base62(43);
    for (let attempt = 0; attempt < 5; attempt++) {
      const prefix = randomPrefix();
      const rows: TokenRow[] = await this.db.query(
        `INSERT INTO api_tokens (user_id, name, prefix, secret_hash, rate_limit_per_minute, scopes, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(days => $7::int) END)
         ON CONFLICT (prefix) DO NOTHING
         RETURNING ${TOKEN_COLUMNS}`,
        [userId, input.name, prefix, sha256Hex(secret), rate, scopes, input.expiresInDays ?? null],
      );
      if (rows[0]) return { token: toView(rows[0]), plaintext: `${TOKEN_SERVICE_PREFIX}_${prefix}_${secret}` };
    }
    throw new Error('could not allocate a unique token prefix');
  }

  async revoke(userId: string, tokenId: string): Promise<ApiTokenView> {
    const updated = await rows<TokenRow>(
      this.db,
      `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id::text = $2 AND user_id = $1
       RETURNING ${TOKEN_COLUMNS}`,
      [userId, tokenId],
    );
    if (!updated[0]) throw AppError.notFound('令牌不存在');
    return toView(updated[0]);
  }

  /** Resolves a presented plaintext token: its identity, or why it is refused. */
  async authenticate(plaintext: string): Promise<TokenIdentity | TokenRefusal> {
    const match = TOKEN_PATTERN.exec(plaintext);
    if (!match) return 'invalid';
    const [, prefix, secret] = match;
    const rows: Array<
      Parameters<typeof toAuthUser>[0] & {
        token_id: string;
        secret_hash: string;
        rate_limit_per_minute: number;
        scopes: TokenScope[];
        expired: boolean;
      }
    > = await namedQuery(
      this.db,
      this.pool,
      'auth_token_by_prefix',
      `SELECT t.id AS token_id, t.secret_hash, t.rate_limit_per_minute, t.scopes, coalesce(t.expires_at <= now(), false) AS expired,
              ${USER_COLUMNS}
       FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.prefix = $1 AND t.revoked_at IS NULL`,
      [prefix],
    );
    const row = rows[0];
    if (!row || !equalHex(row.secret_hash, sha256Hex(secret!))) return 'invalid';
    // Only the holder of the secret learns that it expired.
    if (row.expired) return 'expired';
    await this.touch(row.token_id);
    return { tokenId: row.token_id, rateLimitPerMinute: row.rate_limit_per_minute, scopes: row.scopes, user: toAuthUser(row) };
  }

  private async touch(tokenId: string): Promise<void> {
    const now = Date.now();
    if ((this.lastTouched.get(tokenId) ?? 0) > now - 60_000) return;
    if (this.lastTouched.size > 10_000) this.lastTouched.clear();
    this.lastTouched.set(tokenId, now);
    await this.db.query(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [tokenId]);
  }
}
