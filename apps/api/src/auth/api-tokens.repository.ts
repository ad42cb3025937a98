import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  containsPattern,
  cursorTimeSql,
  newestFirstAfterSql,
  type NewestFirstKey,
  type PageRequest,
} from '../common/page-cursor.js';
import type { TokenScope } from './token-scope.js';

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

export interface TokenRow {
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

export type PagedTokenRow = TokenRow & { cursor_time: string };

/** SQL for pages of an owner's API tokens, newest first. */
@Injectable()
export class ApiTokensRepository {
  constructor(private readonly db: DataSource) {}

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
