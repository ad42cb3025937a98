import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { cursorTimeSql, newestFirstAfterSql, type NewestFirstKey, type PageRequest } from '../common/page-cursor.js';
import { rows } from '../common/sql.js';
import type { Columns, Row } from '../database/rows.js';
import type { ReportFilter, ReportStatus, ReportedShareState } from './reports.dto.js';

type Executor = Pick<DataSource | EntityManager, 'query'>;

/** A report with what the administrators' queue shows beside it. */
export type AdminReportRow = Columns<
  'share_reports',
  // share_token and file_name: the live share's when it still exists (coalesce), else the report's.
  'id' | 'share_id' | 'share_token' | 'file_name' | 'reason' | 'ip_prefix' | 'created_at' | 'status' | 'resolved_at',
  { status: ReportStatus }
> & {
  /** Computed: the share's state now. */
  share_state: ReportedShareState;
  /** u.id, u.email, u.segment of the owner (left join: null once the account is gone). */
  owner_id: Row<'users'>['id'] | null;
  owner_email: Row<'users'>['email'] | null;
  owner_segment: Row<'users'>['segment'] | null;
  /** Computed: u.disabled_at IS NOT NULL. */
  owner_disabled: boolean;
  /** a.id AS resolved_by, a.email AS resolver_email: the resolving administrator (left join). */
  resolved_by: Row<'users'>['id'] | null;
  resolver_email: Row<'users'>['email'] | null;
  /** Computed: the open reports on the share. */
  open_on_share: number;
  /** Computed: cursorTimeSql('r.created_at'). */
  cursor_time: string;
};

/** A report as its share's owner sees it. */
export type OwnerReportRow = Columns<
  'share_reports',
  'id' | 'reason' | 'ip_prefix' | 'created_at' | 'status' | 'resolved_at',
  { status: ReportStatus }
> & {
  /** Computed: cursorTimeSql('r.created_at'). */
  cursor_time: string;
};

/** What a resolution judges, read under the locks it takes. */
export interface LockedReport {
  id: string;
  shareId: string | null;
  ownerId: string | null;
  status: ReportStatus;
}

// The live share and owner when they still exist, else what the report kept of them.
const ADMIN_REPORT_SQL = `
  SELECT r.id, r.share_id, coalesce(s.token, r.share_token) AS share_token, coalesce(f.name, fo.name, r.file_name) AS file_name,
    CASE WHEN s.id IS NULL THEN 'deleted' WHEN s.disabled_at IS NOT NULL THEN 'disabled'
         WHEN s.revoked_at IS NOT NULL THEN 'revoked' ELSE 'active' END AS share_state,
    u.id AS owner_id, u.email AS owner_email, u.segment AS owner_segment, coalesce(u.disabled_at IS NOT NULL, false) AS owner_disabled,
    r.reason, r.ip_prefix, r.created_at, r.status, r.resolved_at, a.id AS resolved_by, a.email AS resolver_email,
    CASE WHEN r.share_id IS NULL THEN (r.status = 'open')::int
         ELSE (SELECT count(*)::int FROM share_reports o WHERE o.share_id = r.share_id AND o.status = 'open') END AS open_on_share,
    ${cursorTimeSql('r.created_at')} AS cursor_time
  FROM share_reports r
  LEFT JOIN shares s ON s.id = r.share_id
  LEFT JOIN files f ON f.id = s.file_id
  LEFT JOIN folders fo ON fo.id = s.folder_id
  LEFT JOIN users u ON u.id = coalesce(s.user_id, r.owner_id)
  LEFT JOIN users a ON a.id = r.resolved_by`;

const FILTER_SQL: Record<ReportFilter, string> = {
  open: `r.status = 'open'`,
  resolved: `r.status <> 'open'`,
  all: 'true',
};

/** SQL of abuse reports: the administrators' queue, their resolution, and each owner's view. */
@Injectable()
export class ReportsRepository {
  constructor(private readonly db: DataSource) {}

  /** One page newest first, and one row more. */
  async page(filter: ReportFilter, page: PageRequest<NewestFirstKey>): Promise<AdminReportRow[]> {
    const params: unknown[] = [];
    const where = [FILTER_SQL[filter]];
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length, 'r.'));
    }
    params.push(page.limit + 1);
    return rows<AdminReportRow>(
      this.db,
      `${ADMIN_REPORT_SQL} WHERE ${where.join(' AND ')} ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length}`,
      params,
    );
  }

  async find(id: string, executor: Executor = this.db): Promise<AdminReportRow | null> {
    const found = await rows<AdminReportRow>(executor, `${ADMIN_REPORT_SQL} WHERE r.id = $1`, [id]);
    return found[0] ?? null;
  }

  /** The share and owner a report is about, unlocked: tells a resolution which rows to lock. */
  async target(manager: EntityManager, id: string): Promise<{ shareId: string | null; ownerId: string | null } | null> {
    const found = await rows<{ share_id: string | null; owner_id: string | null }>(
      manager,
      `SELECT r.share_id, coalesce(s.user_id, r.owner_id) AS owner_id FROM share_reports r LEFT JOIN shares s ON s.id = r.share_id WHERE r.id = $1`,
      [id],
    );
    const row = found[0];
    return row ? { shareId: row.share_id, ownerId: row.owner_id } : null;
  }

  /**
   * Locks the share row: resolutions of the same share's reports take turns on it, and so does
   * deleting it (which sets its reports' share_id to null), so neither can interleave.
   */
  async lockShare(manager: EntityManager, shareId: string): Promise<void> {
    await manager.query(`SELECT 1 FROM shares WHERE id = $1 FOR NO KEY UPDATE`, [shareId]);
  }

  async lockReport(manager: EntityManager, id: string): Promise<LockedReport | null> {
    const found = await rows<{ id: string; share_id: string | null; owner_id: string | null; status: ReportStatus }>(
      manager,
      `SELECT r.id, r.share_id, coalesce(s.user_id, r.owner_id) AS owner_id, r.status
       FROM share_reports r LEFT JOIN shares s ON s.id = r.share_id WHERE r.id = $1 FOR UPDATE OF r`,
      [id],
    );
    const row = found[0];
    return row ? { id: row.id, shareId: row.share_id, ownerId: row.owner_id, status: row.status } : null;
  }

  /**
   * Resolves the report and every other open report of its share with the same outcome; answers
   * the ids resolved (the report itself first).
   */
  async resolve(
    manager: EntityManager,
    report: LockedReport,
    status: Exclude<ReportStatus, 'open'>,
    actorId: string,
  ): Promise<string[]> {
    const resolved = await rows<{ id: string }>(
      manager,
      `UPDATE share_reports SET status = $3, resolved_at = now(), resolved_by = $4
       WHERE status = 'open' AND (id = $1 OR ($2::uuid IS NOT NULL AND share_id = $2::uuid))
       RETURNING id`,
      [report.id, report.shareId, status, actorId],
    );
    const ids = resolved.map((row) => row.id);
    return [report.id, ...ids.filter((id) => id !== report.id)];
  }

  /** Takes the share out of service for good: disabled, and revoked if it was not already. */
  async disableShare(manager: EntityManager, shareId: string): Promise<void> {
    await manager.query(
      `UPDATE shares SET disabled_at = coalesce(disabled_at, now()), revoked_at = coalesce(revoked_at, now()) WHERE id = $1`,
      [shareId],
    );
  }

  /** Whether `userId` owns the share (and it exists). */
  async ownsShare(userId: string, shareId: string): Promise<boolean> {
    const found = await rows<{ id: string }>(this.db, `SELECT id FROM shares WHERE id = $1 AND user_id = $2`, [shareId, userId]);
    return found.length === 1;
  }

  /** One page of a share's reports, newest first, and one row more. */
  async pageOfShare(shareId: string, page: PageRequest<NewestFirstKey>): Promise<OwnerReportRow[]> {
    const params: unknown[] = [shareId];
    const where = ['r.share_id = $1'];
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length, 'r.'));
    }
    params.push(page.limit + 1);
    return rows<OwnerReportRow>(
      this.db,
      `SELECT r.id, r.reason, r.ip_prefix, r.created_at, r.status, r.resolved_at, ${cursorTimeSql('r.created_at')} AS cursor_time
       FROM share_reports r WHERE ${where.join(' AND ')} ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length}`,
      params,
    );
  }
}
