import { Injectable } from '@nestjs/common';
import { escapeLiteral, type Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool, type PooledClient } from '../../database/named-statements.js';
import type { ShareNotify } from '../../shares/share-notify.js';
import { VISIT_LOG_COPY_COLUMNS, visitLogCopyData } from './visit-log-copy.js';
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

/** The SQLSTATE of a foreign key's failed check: share_visit_days names a share that is gone. */
const FOREIGN_KEY_VIOLATION = '23503';
/** Shares deleted under one batch again and again: after this many tries the batch is given up (and logged). */
const BATCH_ATTEMPTS = 4;
/** A day in milliseconds: the log's day counts are UTC days. */
const DAY_MS = 86_400_000;

/**
 * The plain batch (no share of it notifies anyone) in one round trip: one simple query that copies
 * its rows (binary COPY, visit-log-copy.ts) and adds them to share_visit_days, in a transaction of
 * its own (`ownTransaction`) or the caller's. Committed without waiting for the WAL flush, like an
 * uncapped visit's counters: the log is written after the answer and is best-effort already (a
 * failed write loses its rows); only a database crash could forget the last milliseconds of it,
 * never an admission or a counter.
 *
 * COPY, not one INSERT over 13 unnest()ed arrays: a row costs PostgreSQL its heap and index
 * inserts and little else (no array to parse, rows stored several to a page write), and the api
 * encodes it without pg's array literals, a view's largest allocation (bench/PROFILE.md).
 *
 * No share can lose its visits to a race: the day counts' foreign key locks each share of the
 * batch (`FOR KEY SHARE`, as the INSERT's live-share lock does), so a delete waits for the batch
 * to commit and then deletes its rows (migration 1763700001900), and a share deleted first fails
 * the check and the whole batch. The texts of the day counts are literals: share ids the encoder
 * has checked to be uuids, dates and counts of its own.
 */
export function copyVisitBatch(
  client: PooledClient | Client,
  entries: readonly VisitLogEntry[],
  ownTransaction = true,
): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  const data = visitLogCopyData(entries);
  // Visits per share and UTC day, the day counted from the epoch: a date's text (toISOString(),
  // almost a microsecond) is made once per share and day of the batch, not once per row.
  const days = new Map<string, { human: number; automated: number }>();
  for (const entry of entries) {
    const key = `${entry.shareId} ${Math.floor(entry.at.getTime() / DAY_MS)}`;
    let counts = days.get(key);
    if (!counts) days.set(key, (counts = { human: 0, automated: 0 }));
    if (entry.automated) counts.automated++;
    else counts.human++;
  }
  const rows = [...days].map(([key, counts]) => {
    const [shareId, day] = key.split(' ') as [string, string];
    const date = new Date(Number(day) * DAY_MS).toISOString().slice(0, 10);
    return `(${escapeLiteral(shareId)}::uuid, ${escapeLiteral(date)}::date, ${counts.human}, ${counts.automated})`;
  });
  const text = [
    ...(ownTransaction ? ['BEGIN', 'SET LOCAL synchronous_commit = off'] : []),
    `COPY share_visit_log (${VISIT_LOG_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`,
    `INSERT INTO share_visit_days AS d (share_id, day, human, automated) VALUES ${rows.join(', ')}
       ON CONFLICT (share_id, day) DO UPDATE SET human = d.human + excluded.human, automated = d.automated + excluded.automated`,
    ...(ownTransaction ? ['COMMIT'] : []),
  ].join(';\n');
  return new Promise<void>((resolve, reject) => {
    const stream = client.query(copyFrom(text));
    stream.on('finish', resolve);
    stream.on('error', reject);
    stream.end(data);
  });
}

/**
 * `copyVisitBatch` in a transaction of its own on `client`, leaving out the visits of shares
 * deleted since: a batch that met a deleted share is rolled back, and written again without the
 * shares that are gone.
 */
export async function writeVisitBatch(client: PooledClient | Client, entries: readonly VisitLogEntry[]): Promise<void> {
  let batch = entries;
  for (let attempt = 1; batch.length > 0; attempt++) {
    try {
      await copyVisitBatch(client, batch);
      return;
    } catch (error) {
      // A connection that is gone cannot roll back: the batch's own failure is the one to report.
      await client.query('ROLLBACK').catch(() => Promise.reject(error));
      if ((error as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION || attempt >= BATCH_ATTEMPTS) throw error;
    }
    const shareIds = [...new Set(batch.map((entry) => entry.shareId))];
    const { rows } = await client.query<{ id: string }>('SELECT id FROM shares WHERE id = ANY($1::uuid[])', [shareIds]);
    const live = new Set(rows.map((row) => row.id));
    batch = batch.filter((entry) => live.has(entry.shareId));
  }
}

/**
 * The write of a batch in which some share notifies its owner, with the notifications of those
 * visits in the same statement: they exist exactly when their visits are logged. It writes the
 * same rows and day counts as `copyVisitBatch` for the other visits. Automated
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
    INSERT INTO notifications (user_id, recipient_id, kind, share_id, file_name, data, created_at)
    SELECT s.user_id, m.user_id, CASE WHEN n.notify = 'first' THEN 'first_visit' ELSE 'visit' END, s.id,
           coalesce(f.name, fo.name),
           jsonb_build_object('visitId', n.id, 'visitCount', n.visit_count, 'uniqueVisitCount', n.unique_visit_count,
                              'ipPrefix', n.ip_prefix, 'referer', n.referer, 'browser', n.browser, 'os', n.os,
                              'device', n.device),
           n.at
      FROM noticed n
      JOIN shares s ON s.id = n.share_id
      LEFT JOIN files f ON f.id = s.file_id
      LEFT JOIN folders fo ON fo.id = s.folder_id
      -- A shared workspace's link notifies the member who made it, while they are a member.
      LEFT JOIN workspace_members m ON m.workspace_id = s.user_id AND m.user_id = s.created_by
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
    // A batch in which no share notifies anyone is copied (the common case).
    const notifying = entries.some((entry) => entry.notify === 'first' || entry.notify === 'every');
    if (!notifying && this.pool?.connect) {
      const client = await this.pool.connect();
      try {
        await writeVisitBatch(client, entries);
      } catch (error) {
        // A connection that failed may be in any state: it is closed, not handed to the next caller.
        client.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
      client.release();
      return [];
    }
    // A batch with notifications (or where there is no pool to copy through): one statement.
    const column = <K extends keyof VisitLogEntry>(key: K) => entries.map((entry) => entry[key]);
    const result: unknown = await namedQuery(this.db, this.pool, 'viewer_log_notifying_visits', INSERT_NOTIFYING_SQL, [
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
      column('notify'),
      column('visitCount'),
      column('uniqueVisitCount'),
    ]);
    return returnedRows<{ id: string }>(result).map((row) => row.id);
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
