import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../database/named-statements.js';
import type { ShareNotify } from '../shares/share-notify.js';
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
  /** The share's notification choice when the visit was admitted (from the gate row). */
  notify: ShareNotify;
  /** The share's counts after this visit, for its notification. */
  visitCount: number;
  uniqueVisitCount: number;
}

/** What one engagement beacon reports; every field only ever raises what is stored. */
export interface Engagement {
  durationMs: number;
  scrollDepth: number;
  completed: boolean;
}

/**
 * The shares of a batch that still exist, each locked once against its deletion until the batch
 * commits (migration 1763700001900: the log has no per-row foreign key check; deleting a share
 * deletes its visits, and waits for this lock to find them).
 */
const LIVE_SHARES_OF_BATCH = 'SELECT s.id FROM shares s WHERE s.id = ANY($2::uuid[]) FOR KEY SHARE';

/**
 * Many visits in one statement, counted per day on the way (share_visit_days). A share deleted between the visit and the write takes its rows
 * with it: they are left out instead of failing the whole batch. Committed
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
    WHERE v.share_id IN (${LIVE_SHARES_OF_BATCH})
    RETURNING share_id, at, automated
  )
  INSERT INTO share_visit_days AS d (share_id, day, human, automated)
  SELECT share_id, (at AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE NOT automated), count(*) FILTER (WHERE automated)
    FROM logged CROSS JOIN async_commit GROUP BY 1, 2
  ON CONFLICT (share_id, day) DO UPDATE SET human = d.human + excluded.human, automated = d.automated + excluded.automated`;

/**
 * The same write for a batch in which some share notifies its owner, with the notifications of
 * those visits in the same statement: they exist exactly when their visits are logged. Automated
 * visits notify nobody. Of a `first` share only the earliest visit of the batch may notify, and
 * only if the conditional update finds `first_visit_notified_at` still null: the share rows are
 * locked in id order first, so two replicas' batches that both hold first visits of the same
 * shares queue instead of deadlocking, and the one that comes second finds the column set and
 * writes nothing. Answers the ids of the notifications written, for their e-mail.
 */
const INSERT_NOTIFYING_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::text[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::boolean[],
                         $14::text[], $15::int[], $16::int[])
      AS v(id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device, login_email, automated, measured,
           notify, visit_count, unique_visit_count)
  ), logged AS (
    INSERT INTO share_visit_log (id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device,
                                 login_email, automated, measured)
    SELECT v.id, v.share_id, v.at, v.visitor_id, v.ip_prefix, v.referer, v.user_agent, v.browser, v.os, v.device,
           v.login_email, v.automated, v.measured
      FROM input v
    WHERE v.share_id IN (${LIVE_SHARES_OF_BATCH})
    RETURNING id, share_id, at, automated
  ), days AS (
    INSERT INTO share_visit_days AS d (share_id, day, human, automated)
    SELECT share_id, (at AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE NOT automated), count(*) FILTER (WHERE automated)
      FROM logged GROUP BY 1, 2
    ON CONFLICT (share_id, day) DO UPDATE SET human = d.human + excluded.human, automated = d.automated + excluded.automated
  ), noticed AS (
    SELECT i.* FROM logged l JOIN input i ON i.id = l.id WHERE NOT l.automated AND i.notify IN ('first', 'every')
  ), earliest AS (
    SELECT DISTINCT ON (share_id) * FROM noticed WHERE notify = 'first' ORDER BY share_id, at, id
  ), locked AS (
    SELECT s.id FROM shares s
     WHERE s.id IN (SELECT share_id FROM earliest) AND s.first_visit_notified_at IS NULL
     ORDER BY s.id FOR NO KEY UPDATE
  ), firsts AS (
    UPDATE shares s SET first_visit_notified_at = e.at
      FROM earliest e
     WHERE s.id = e.share_id AND s.id IN (SELECT id FROM locked) AND s.first_visit_notified_at IS NULL
    RETURNING e.id
  ), notes AS (
    INSERT INTO notifications (user_id, kind, share_id, file_name, data, created_at)
    SELECT s.user_id, CASE WHEN n.notify = 'first' THEN 'first_visit' ELSE 'visit' END, s.id, coalesce(f.name, fo.name),
           jsonb_build_object('visitId', n.id, 'visitCount', n.visit_count, 'uniqueVisitCount', n.unique_visit_count,
                              'ipPrefix', n.ip_prefix, 'referer', n.referer, 'browser', n.browser, 'os', n.os,
                              'device', n.device),
           n.at
      FROM noticed n
      JOIN shares s ON s.id = n.share_id
      LEFT JOIN files f ON f.id = s.file_id
      LEFT JOIN folders fo ON fo.id = s.folder_id
     WHERE n.notify = 'every' OR n.id IN (SELECT id FROM firsts)
    RETURNING id
  )
  SELECT id FROM notes`;

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

  /** Logs the visits; answers the ids of the notifications written with them. */
  async insertAll(entries: readonly VisitLogEntry[]): Promise<string[]> {
    const column = <K extends keyof VisitLogEntry>(key: K) => entries.map((entry) => entry[key]);
    // A batch in which no share notifies anyone keeps the plain statement: the common case pays nothing.
    const notifying = entries.some((entry) => entry.notify === 'first' || entry.notify === 'every');
    const result: unknown = await namedQuery(
      this.db,
      this.pool,
      notifying ? 'viewer_log_notifying_visits' : 'viewer_log_visits',
      notifying ? INSERT_NOTIFYING_SQL : INSERT_SQL,
      [
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
        ...(notifying ? [column('notify'), column('visitCount'), column('uniqueVisitCount')] : []),
      ],
    );
    return notifying ? returnedRows<{ id: string }>(result).map((row) => row.id) : [];
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
