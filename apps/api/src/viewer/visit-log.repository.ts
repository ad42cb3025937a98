import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount } from '../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../database/named-statements.js';
import type { VisitorDevice } from './visitor-agent.js';

/** One admitted visit as the log keeps it. */
export interface VisitLogEntry {
  id: string;
  shareId: string;
  at: Date;
  visitorId: string;
  ipPrefix: string;
  referer: string | null;
  userAgent: string | null;
  browser: string | null;
  os: string | null;
  device: VisitorDevice;
  loginEmail: string | null;
  automated: boolean;
  measured: boolean;
}

/** What one engagement beacon reports; every field only ever raises what is stored. */
export interface Engagement {
  durationMs: number;
  scrollDepth: number;
  completed: boolean;
}

/**
 * Many visits in one statement, counted per day on the way (share_visit_days). A share deleted between the visit and the write takes its rows
 * with it: the join drops them instead of failing the whole batch on the foreign key. Committed
 * without waiting for the WAL flush, like an uncapped visit's counters: the log is written after
 * the answer and is best-effort already (a failed write loses its rows); only a database crash
 * could forget the last milliseconds of it, never an admission or a counter.
 */
const INSERT_SQL = `
  WITH async_commit AS (
    SELECT set_config('synchronous_commit', 'off', true)
  ), logged AS (
    INSERT INTO share_visit_log (id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device,
                                 login_email, automated, measured)
    SELECT v.* FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[],
                           $8::text[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::boolean[])
      AS v(id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device, login_email, automated, measured)
    WHERE EXISTS (SELECT 1 FROM shares s WHERE s.id = v.share_id)
    ON CONFLICT (id) DO NOTHING
    RETURNING share_id, at, automated
  )
  INSERT INTO share_visit_days AS d (share_id, day, human, automated)
  SELECT share_id, (at AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE NOT automated), count(*) FILTER (WHERE automated)
    FROM logged CROSS JOIN async_commit GROUP BY 1, 2
  ON CONFLICT (share_id, day) DO UPDATE SET human = d.human + excluded.human, automated = d.automated + excluded.automated`;

/**
 * A beacon raises time, depth and completion, never lowers them, and only on a measured visit of
 * that share. Time cannot exceed the time elapsed since the visit began.
 */
const ENGAGE_SQL = `
  UPDATE share_visit_log SET
    duration_ms = greatest(coalesce(duration_ms, 0),
                           least($3::integer, (extract(epoch FROM now() - at) * 1000)::integer + 1000)),
    scroll_depth = greatest(coalesce(scroll_depth, 0), $4::real),
    completed = completed OR $5::boolean
  WHERE id = $1::uuid AND share_id = $2::uuid AND measured`;

/** The visit log's writes (the reads are the shares feature's). */
@Injectable()
export class VisitLogRepository {
  // Every view's visit goes through insertAll: planning it costs more than a small batch's rows.
  private readonly pool: NamedStatementPool | null;

  constructor(private readonly db: DataSource) {
    this.pool = namedStatementPool(db);
  }

  async insertAll(entries: readonly VisitLogEntry[]): Promise<void> {
    const column = <K extends keyof VisitLogEntry>(key: K) => entries.map((entry) => entry[key]);
    await namedQuery(this.db, this.pool, 'viewer_log_visits', INSERT_SQL, [
      column('id'),
      column('shareId'),
      column('at').map((at) => at.toISOString()),
      column('visitorId'),
      column('ipPrefix'),
      column('referer'),
      column('userAgent'),
      column('browser'),
      column('os'),
      column('device'),
      column('loginEmail'),
      column('automated'),
      column('measured'),
    ]);
  }

  async engage(visitId: string, shareId: string, engagement: Engagement): Promise<boolean> {
    const result: unknown = await this.db.query(ENGAGE_SQL, [
      visitId,
      shareId,
      engagement.durationMs,
      engagement.scrollDepth,
      engagement.completed,
    ]);
    return affectedCount(result) > 0;
  }

  /** Deletes visits older than the retention period; the hourly counts are elsewhere and stay. */
  async deleteOlderThan(days: number, batch = 5_000): Promise<number> {
    let total = 0;
    // In slices, so a first purge of a large backlog holds no long lock and no huge transaction.
    for (;;) {
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM share_visit_log WHERE id IN (
             SELECT id FROM share_visit_log WHERE at < now() - make_interval(days => $1::int) LIMIT $2)`,
          [days, batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
