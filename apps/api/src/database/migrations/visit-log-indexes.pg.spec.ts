import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShareAnalyticsRepository } from '../../shares/analytics/share-analytics.repository.js';
import {
  newestOfBothKinds,
  ShareVisitLogRepository,
  type VisitLogFilter,
} from '../../shares/analytics/share-visit-log.repository.js';
import { testVisitLogEntry } from '../../viewer/visit-log/visit-log-entry.fixture.js';
import { VisitLogRepository } from '../../viewer/visit-log/visit-log.repository.js';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { VisitLogIndexes1763700002000 } from './1763700002000-visit-log-indexes.js';

let db: TestDatabase;
let ownerId: string;
let log: VisitLogRepository;
let pages: ShareVisitLogRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
  log = new VisitLogRepository(db.dataSource);
  pages = new ShareVisitLogRepository(db.dataSource);
});
afterAll(async () => {
  await db?.drop();
});

const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);
const indexes = async () =>
  (
    (await sql(`SELECT indexdef FROM pg_indexes WHERE tablename = 'share_visit_log' ORDER BY indexname`)) as Array<{
      indexdef: string;
    }>
  ).map((row) => row.indexdef.replace(/^.* USING /, ''));

/** Every page of the log under `filter`, newest first, as ids. */
async function allPages(filter: Omit<VisitLogFilter, 'after'>, size: number): Promise<string[]> {
  const ids: string[] = [];
  let after: VisitLogFilter['after'] = null;
  for (;;) {
    const rows = await pages.page({ ...filter, after }, size);
    ids.push(...rows.map((row) => row.visit.id));
    if (rows.length < size) return ids;
    const last = rows[rows.length - 1]!;
    after = { at: last.atKey, id: last.visit.id };
  }
}

describe('the visit log with one (share_id, automated, at, id) index and a BRIN index on at', () => {
  it('keeps the primary key, the per-share index and a BRIN index on at', async () => {
    expect(await indexes()).toEqual([
      "brin (at) WITH (autosummarize='on')",
      'btree (id)',
      'btree (share_id, automated, at DESC, id DESC)',
    ]);
  });

  it('pages through human and automated visits together newest first, across equal times, and each kind alone', async () => {
    const { shareId } = await createTestShare(db.dataSource, ownerId);
    const other = await createTestShare(db.dataSource, ownerId);
    const base = Date.parse('2026-11-01T00:00:00Z');
    // 40 visits, bots every third, pairs of them at the same instant; another share's visits between.
    const entries = Array.from({ length: 40 }, (_, i) =>
      testVisitLogEntry(shareId, { at: new Date(base + Math.floor(i / 2) * 1000), automated: i % 3 === 0 }),
    );
    await log.insertAll([...entries, ...entries.slice(0, 5).map((e) => testVisitLogEntry(other.shareId, { at: e.at }))]);
    const newestFirst = [...entries].sort((a, b) => b.at.getTime() - a.at.getTime() || (b.id < a.id ? -1 : 1));
    const filter = { shareId, from: null, to: null };
    expect(await allPages({ ...filter, automated: null }, 7)).toEqual(newestFirst.map((e) => e.id));
    expect(await allPages({ ...filter, automated: true }, 4)).toEqual(newestFirst.filter((e) => e.automated).map((e) => e.id));
    expect(await allPages({ ...filter, automated: false }, 50)).toEqual(newestFirst.filter((e) => !e.automated).map((e) => e.id));
    const from = new Date(base + 5000);
    const to = new Date(base + 12_000);
    expect(await allPages({ ...filter, automated: null, from, to }, 3)).toEqual(
      newestFirst.filter((e) => e.at >= from && e.at < to).map((e) => e.id),
    );
  });

  it('reads both kinds from two ranges of the per-share index, merged, never scanning the table', async () => {
    await sql('SET enable_seqscan = off');
    try {
      const statement = newestOfBothKinds('id, at', 'share_id = $1::uuid', '10');
      const plan = ((await sql(`EXPLAIN ${statement}`, [randomUUID()])) as Array<{ 'QUERY PLAN': string }>)
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('Merge Append');
      expect(plan.match(/Scan (using|on) share_visit_log_share_automated_at/g)).toHaveLength(2);
      expect(plan).not.toContain('Seq Scan');
      // Each range comes out of the index in order: nothing is sorted.
      expect(plan).not.toMatch(/->\s+Sort/);
    } finally {
      await sql('RESET enable_seqscan');
    }
  });

  it('section analytics samples the newest visits of both kinds', async () => {
    const { shareId } = await createTestShare(db.dataSource, ownerId);
    const analytics = new ShareAnalyticsRepository(db.dataSource);
    await log.insertAll([testVisitLogEntry(shareId, { automated: true }), testVisitLogEntry(shareId)]);
    await expect(analytics.sections(shareId, 30)).resolves.toEqual([]);
  });

  it('down() restores the three B-tree indexes, and up() again', async () => {
    const migration = new VisitLogIndexes1763700002000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await indexes()).toEqual([
        'btree (at)',
        'btree (id)',
        'btree (share_id, at DESC, id DESC)',
        'btree (share_id, automated, at DESC, id DESC)',
      ]);
      await migration.up(runner);
      expect(await indexes()).toHaveLength(3);
    } finally {
      await runner.release();
    }
  });
});
