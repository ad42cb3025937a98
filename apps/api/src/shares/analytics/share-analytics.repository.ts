import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns } from '../../database/rows.js';
import type { AnalyticsCountDto, AnalyticsDayDto } from './share-analytics.dto.js';
import { newestOfBothKinds } from './share-visit-log.repository.js';

/** Ten counts, depth0 (0 to 10 %) … depth9 (90 to 100 %). */
const DEPTH_BUCKETS = Array.from({ length: 10 }, (_, i) => `count(*) FILTER (WHERE n = ${i})::int AS depth${i}`).join(', ');

/**
 * Engagement, referrers and devices are read from the newest this-many human visits of the
 * period: one walk down the (share_id, automated, at) index, whatever the share's size.
 */
export const ENGAGEMENT_SAMPLE = 20_000;

export interface EngagementSummary {
  /** Human visits looked at (at most ENGAGEMENT_SAMPLE). */
  sampled: number;
  measured: number;
  medianDurationMs: number | null;
  completed: number;
  histogram: number[];
}

/** What human visits of a period read of one section of one document (share_section_reads). */
export interface SectionTotals {
  fileId: string;
  fileName: string;
  index: number;
  /** The heading the newest read stored (the version read then). */
  heading: string;
  readers: number;
  /** Median ms of the readers; null without readers. */
  medianMs: number | null;
}

/** A section counts for a visit once it was on screen this long. */
export const READER_MIN_MS = 1000;

/**
 * Aggregates of one share's visit log over the last `days` days: the per-day series from the
 * daily counts, the rest from the newest ENGAGEMENT_SAMPLE human visits (see there), so every
 * statement costs the same on a share with a hundred visits or a million.
 */
@Injectable()
export class ShareAnalyticsRepository {
  constructor(private readonly db: DataSource) {}

  async perDay(shareId: string, days: number): Promise<AnalyticsDayDto[]> {
    const rows: Array<{ day: string; human: number; automated: number }> = await this.db.query(
      `WITH counted AS (
         SELECT day, human, automated FROM share_visit_days
          WHERE share_id = $1 AND day >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)
       )
       SELECT to_char(g.day, 'YYYY-MM-DD') AS day, coalesce(c.human, 0) AS human, coalesce(c.automated, 0) AS automated
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS g(day)
         LEFT JOIN counted c ON c.day = g.day::date
        ORDER BY g.day`,
      [shareId, days],
    );
    return rows.map((row) => ({ day: row.day, human: Number(row.human), automated: Number(row.automated) }));
  }

  async engagement(shareId: string, days: number): Promise<EngagementSummary> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS sampled,
              count(*) FILTER (WHERE NOT automated AND duration_ms IS NOT NULL)::int AS measured,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE NOT automated AND duration_ms IS NOT NULL) AS median,
              count(*) FILTER (WHERE NOT automated AND duration_ms IS NOT NULL AND completed)::int AS completed,
              ${DEPTH_BUCKETS}
         FROM (
           SELECT automated, duration_ms, completed,
                  CASE WHEN scroll_depth IS NOT NULL THEN least(9, floor(scroll_depth * 10))::int END AS n
             FROM share_visit_log
            WHERE share_id = $1 AND NOT automated AND at >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)
            ORDER BY at DESC, id DESC LIMIT $3
         ) v`,
      [shareId, days, ENGAGEMENT_SAMPLE],
    )) as Array<{ sampled: number; measured: number; median: number | null; completed: number } & Record<string, number>>;
    const histogram = Array.from({ length: 10 }, (_, i) => Number(row![`depth${i}`] ?? 0));
    return {
      sampled: row!.sampled,
      measured: row!.measured,
      medianDurationMs: row!.median === null ? null : Number(row!.median),
      completed: row!.completed,
      histogram,
    };
  }

  async top(shareId: string, days: number, by: 'referrer' | 'device', limit: number): Promise<AnalyticsCountDto[]> {
    const key = by === 'device' ? 'device' : `coalesce(substring(referer FROM '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#]+)'), '')`;
    const rows: Array<{ name: string; visits: number }> = await this.db.query(
      `SELECT ${key} AS name, count(*)::int AS visits
         FROM (SELECT referer, device FROM share_visit_log
                WHERE share_id = $1 AND NOT automated AND at >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)
                ORDER BY at DESC, id DESC LIMIT $4) v
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $3`,
      [shareId, days, limit, ENGAGEMENT_SAMPLE],
    );
    return rows.map((row) => ({ name: row.name, visits: Number(row.visits) }));
  }

  /**
   * Per document and section: the visits of the period that had it on screen for at least
   * READER_MIN_MS, and the median of their times, read from the newest ENGAGEMENT_SAMPLE visits
   * of the period (the newest of each kind from the (share_id, automated, at) index, merged, then
   * the reads of each by their key),
   * so the statement costs the same whatever the share's size. Every measured visit counts,
   * whatever its User-Agent says: only a browser that ran the viewer page's script, showed the
   * section while the page was visible and in use, and sent the signed beacon has a read (a
   * headless browser reading the page is as much a reader as any).
   */
  async sections(shareId: string, days: number): Promise<SectionTotals[]> {
    const rows: Array<
      Columns<'share_section_reads', 'file_id' | 'section' | 'heading'> & {
        /** Computed: coalesce(f.name, ''). */
        file_name: string;
        /** Computed: count(*)::int of the readers. */
        readers: number;
        /** Computed: percentile_cont (float8). */
        median_ms: number | null;
      }
    > = await this.db.query(
      `WITH sample AS (${newestOfBothKinds('id, at', "share_id = $1 AND at >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)", '$4')})
       SELECT r.file_id, coalesce(f.name, '') AS file_name, r.section,
              (array_agg(r.heading ORDER BY r.at DESC))[1] AS heading,
              count(*) FILTER (WHERE r.ms >= $3)::int AS readers,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.ms >= $3) AS median_ms
         FROM sample v
         JOIN share_section_reads r ON r.visit_id = v.id AND r.share_id = $1
         LEFT JOIN files f ON f.id = r.file_id
        GROUP BY r.file_id, f.name, r.section
        ORDER BY 2, 1, 3`,
      [shareId, days, READER_MIN_MS, ENGAGEMENT_SAMPLE],
    );
    return rows.map((row) => ({
      fileId: row.file_id,
      fileName: row.file_name,
      index: Number(row.section),
      heading: row.heading,
      readers: Number(row.readers),
      medianMs: row.median_ms === null ? null : Number(row.median_ms),
    }));
  }

  /** The documents visits of the period opened (share_document_reads: a collection's, or a single share's one). */
  async documentsRead(shareId: string, days: number): Promise<string[]> {
    const rows: Array<Columns<'share_document_reads', 'file_id'>> = await this.db.query(
      `SELECT DISTINCT file_id FROM share_document_reads
        WHERE share_id = $1 AND at >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)`,
      [shareId, days],
    );
    return rows.map((row) => row.file_id);
  }
}
