import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns } from '../../database/rows.js';
import type { ShareVisitDto } from './share-visit-log.dto.js';

/** Which visits of one share, and where the previous page ended. */
export interface VisitLogFilter {
  shareId: string;
  from: Date | null;
  to: Date | null;
  automated: boolean | null;
  /** The (at, id) of the last visit of the previous page. */
  after: { at: string; id: string } | null;
}

/** PAGE_SQL: the visit's own columns, and computed ones. */
type VisitRow = Columns<
  'share_visit_log',
  | 'id'
  | 'at'
  | 'visitor_id'
  | 'ip_prefix'
  | 'referer'
  | 'user_agent'
  | 'browser'
  | 'os'
  | 'device'
  | 'login_email'
  | 'automated'
  | 'duration_ms'
  | 'scroll_depth'
  | 'completed',
  { device: ShareVisitDto['device'] }
> & {
  /** Computed: `at` as text at full (microsecond) precision. */
  at_text: string;
  /** Computed (json_agg) from share_document_reads and the files' names. */
  documents: Array<{
    fileId: string;
    fileName: string | null;
    at: string;
    durationMs: number;
    scrollDepth: number;
    completed: boolean;
  }>;
};

export interface VisitLogRow {
  visit: ShareVisitDto;
  /** `at` at full (microsecond) precision, for the cursor. */
  atKey: string;
}

/**
 * The rows of one share's log newest first, human and automated together, as one ordered set: the
 * log keeps a single `(share_id, automated, at DESC, id DESC)` index (migration 1763700002000),
 * so each kind is a range of it, read newest first up to `limit` rows, and the two ranges are
 * merged. `where` may use `$n` parameters; `kinds` is an expression that is NULL for both kinds,
 * else the one wanted (the branch of the other kind is then skipped before it reads anything).
 */
export function newestOfBothKinds(columns: string, where: string, limit: string, kinds = 'NULL::boolean'): string {
  const range = (automated: boolean) => `
    (SELECT ${columns} FROM share_visit_log
      WHERE automated = ${automated} AND ${kinds} IS DISTINCT FROM ${!automated} AND ${where}
      ORDER BY at DESC, id DESC LIMIT ${limit})`;
  return `SELECT * FROM (${range(false)} UNION ALL ${range(true)}) both_kinds ORDER BY at DESC, id DESC LIMIT ${limit}`;
}

/**
 * The visit log newest first, each visit with the documents it opened (a collection's; none for a
 * single file's share). Every filter is a range of the (share_id, automated, at DESC, id DESC)
 * index (both kinds: two ranges, merged), and the page continues after a row by a row comparison
 * on (at, id), so a page costs the same on the first and the ten-thousandth page.
 */
const PAGE_SQL = `
  SELECT id, at, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_text, visitor_id, ip_prefix, referer,
         user_agent, browser, os, device, login_email, automated, duration_ms, scroll_depth, completed,
         (SELECT coalesce(json_agg(json_build_object(
                    'fileId', r.file_id, 'fileName', f.name,
                    'at', to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'durationMs', r.duration_ms, 'scrollDepth', r.scroll_depth, 'completed', r.completed)
                  ORDER BY r.at, r.file_id), '[]'::json)
            FROM share_document_reads r LEFT JOIN files f ON f.id = r.file_id
           WHERE r.visit_id = l.id AND r.share_id = l.share_id) AS documents
    FROM (${newestOfBothKinds(
      'id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device, login_email, automated, ' +
        'duration_ms, scroll_depth, completed',
      `share_id = $1::uuid
       AND ($3::timestamptz IS NULL OR at >= $3::timestamptz)
       AND ($4::timestamptz IS NULL OR at < $4::timestamptz)
       AND ($5::timestamptz IS NULL OR (at, id) < ($5::timestamptz, $6::uuid))`,
      '$7',
      '$2::boolean',
    )}) l
   ORDER BY at DESC, id DESC`;

@Injectable()
export class ShareVisitLogRepository {
  constructor(private readonly db: DataSource) {}

  async owns(userId: string, shareId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM shares WHERE id = $1 AND user_id = $2', [shareId, userId]);
    return rows.length > 0;
  }

  async page(filter: VisitLogFilter, limit: number): Promise<VisitLogRow[]> {
    const rows: VisitRow[] = await this.db.query(PAGE_SQL, [
      filter.shareId,
      filter.automated,
      filter.from?.toISOString() ?? null,
      filter.to?.toISOString() ?? null,
      filter.after?.at ?? null,
      filter.after?.id ?? null,
      limit,
    ]);
    return rows.map((row) => ({
      atKey: row.at_text,
      visit: {
        id: row.id,
        at: new Date(row.at).toISOString(),
        visitorId: row.visitor_id,
        ipPrefix: row.ip_prefix,
        referer: row.referer,
        userAgent: row.user_agent,
        browser: row.browser,
        os: row.os,
        device: row.device,
        loginEmail: row.login_email,
        automated: row.automated,
        durationMs: row.duration_ms,
        scrollDepth: row.scroll_depth === null ? null : Math.round(row.scroll_depth * 1000) / 1000,
        completed: row.completed,
        documents: row.documents.map((read) => ({
          ...read,
          scrollDepth: Math.round(read.scrollDepth * 1000) / 1000,
        })),
      },
    }));
  }
}
