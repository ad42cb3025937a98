import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { cursorTimeSql, isCursorTimestamp, isCursorUuid, type CursorKey, type PageRequest } from '../common/page-cursor.js';
import { SHARE_COLUMNS, SHARE_JOINS, type ShareRow } from './share-row.js';
import type { ShareStatus } from './share.dto.js';

/** What a list of shares may be narrowed to; every filter is optional and they combine with AND. */
export interface ShareListFilter {
  fileId?: string;
  /** Only the collections of this folder. */
  folderId?: string;
  /** Revocation wins over consumption, which wins over expiry (the reason a visitor is turned away). */
  status?: ShareStatus;
  /** Case-insensitive part of the file (or collection's folder) name or of the link token. */
  q?: string;
}

/** Where a page of shares ends: the order keys of its last share. */
export interface ShareOrderKey {
  /** created_at to the microsecond, as `cursorTimeSql` prints it. */
  createdAt: string;
  id: string;
}

export const SHARES_CURSOR: CursorKey<ShareOrderKey> = {
  list: 'shares',
  encode: (key) => [key.createdAt, key.id],
  parse: ([createdAt, id, ...rest]) =>
    rest.length === 0 && isCursorTimestamp(createdAt) && isCursorUuid(id) ? { createdAt, id } : null,
};

export type PagedShareRow = ShareRow & { cursor_time: string };

export interface ShareTotals {
  active: number;
  visits: number;
  uniqueVisits: number;
}

const STATUS_SQL: Record<ShareStatus, string> = {
  revoked: 's.revoked_at IS NOT NULL',
  consumed: 's.revoked_at IS NULL AND s.consumed_at IS NOT NULL',
  expired: 's.revoked_at IS NULL AND s.consumed_at IS NULL AND s.expires_at <= now()',
  active: 's.revoked_at IS NULL AND s.consumed_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())',
};

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function filterSql(userId: string, filter: ShareListFilter): { where: string[]; params: unknown[] } {
  const params: unknown[] = [userId];
  const where = ['s.user_id = $1'];
  if (filter.fileId !== undefined) {
    params.push(filter.fileId);
    where.push(`s.file_id = $${params.length}::uuid`);
  }
  if (filter.folderId !== undefined) {
    params.push(filter.folderId);
    where.push(`s.folder_id = $${params.length}::uuid`);
  }
  if (filter.status) where.push(`(${STATUS_SQL[filter.status]})`);
  if (filter.q) {
    params.push(likePattern(filter.q));
    where.push(`(coalesce(f.name, fo.name) ILIKE $${params.length} OR s.token ILIKE $${params.length})`);
  }
  return { where, params };
}

/** SQL for pages of an owner's shares and the totals over all of them. */
@Injectable()
export class ShareListRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * One page (every row when `page` is null), newest first (created_at descending, then id ascending: the order of the whole
   * list). Fetches one row more than the page so the caller knows whether another follows. The
   * bound `created_at <= $c` makes the cursor a range start on shares_user_order_idx; the ties at
   * that instant are then skipped by id.
   */
  async page(userId: string, filter: ShareListFilter, page: PageRequest<ShareOrderKey> | null): Promise<PagedShareRow[]> {
    const { where, params } = filterSql(userId, filter);
    if (page?.after) {
      params.push(page.after.createdAt, page.after.id);
      const [time, id] = [`$${params.length - 1}::timestamptz`, `$${params.length}::uuid`];
      where.push(`s.created_at <= ${time} AND (s.created_at < ${time} OR s.id > ${id})`);
    }
    if (page) params.push(page.limit + 1);
    return this.db.query(
      `SELECT ${SHARE_COLUMNS}, ${cursorTimeSql('s.created_at')} AS cursor_time
       FROM shares s ${SHARE_JOINS}
       WHERE ${where.join(' AND ')}
       ORDER BY s.created_at DESC, s.id
       ${page ? `LIMIT $${params.length}` : ''}`,
      params,
    );
  }

  /** How many shares the filter lets through, over all pages. */
  async count(userId: string, filter: ShareListFilter): Promise<number> {
    const { where, params } = filterSql(userId, filter);
    const join = filter.q ? 'LEFT JOIN files f ON f.id = s.file_id LEFT JOIN folders fo ON fo.id = s.folder_id' : '';
    const [row]: Array<{ total: number }> = await this.db.query(
      `SELECT count(*)::int AS total FROM shares s ${join} WHERE ${where.join(' AND ')}`,
      params,
    );
    return row!.total;
  }

  /** Active links and visits over every share of the owner, whatever page is on screen. */
  async totals(userId: string): Promise<ShareTotals> {
    const [row]: Array<{ active: number; visits: string; unique_visits: string }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE ${STATUS_SQL.active})::int AS active,
              coalesce(sum(s.visit_count), 0) AS visits, coalesce(sum(s.unique_visit_count), 0) AS unique_visits
       FROM shares s WHERE s.user_id = $1`,
      [userId],
    );
    return { active: row!.active, visits: Number(row!.visits), uniqueVisits: Number(row!.unique_visits) };
  }
}
