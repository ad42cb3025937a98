import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testVisitLogEntry } from '../../viewer/visit-log/visit-log-entry.fixture.js';
import { copyVisitBatch, VisitLogRepository, writeVisitBatch } from '../../viewer/visit-log/visit-log.repository.js';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { VisitLogWrites1763700001900 } from './1763700001900-visit-log-writes.js';

let db: TestDatabase;
let ownerId: string;
let log: VisitLogRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
  log = new VisitLogRepository(db.dataSource);
});
afterAll(async () => {
  await db?.drop();
});

const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

const newShare = () => createTestShare(db.dataSource, ownerId);
const visit = (shareId: string) => testVisitLogEntry(shareId);

/** Resolves once `client`'s statement waits for a lock another transaction holds. */
async function waitingForLock(client: pg.Client): Promise<void> {
  const pid = (client as unknown as { processID: number }).processID;
  for (let tries = 0; tries < 500; tries++) {
    const [row] = await sql('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (row?.wait_event_type === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

const logged = async (shareId: string) =>
  Number((await sql('SELECT count(*)::int AS n FROM share_visit_log WHERE share_id = $1', [shareId]))[0].n);

describe('visit log writes without a per-row foreign key', () => {
  it('deleting a share deletes its visits, by itself or through its file, and nothing else', async () => {
    const [a, b, c] = [await newShare(), await newShare(), await newShare()];
    await log.insertAll([visit(a.shareId), visit(a.shareId), visit(b.shareId), visit(c.shareId)]);
    await sql('DELETE FROM shares WHERE id = $1', [a.shareId]);
    await sql('DELETE FROM files WHERE id = $1', [b.fileId]);
    expect([await logged(a.shareId), await logged(b.shareId), await logged(c.shareId)]).toEqual([0, 0, 1]);
  });

  it('a share deleted while a batch of its visits is being written leaves no visit behind, whichever commits first', async () => {
    const url = (db.dataSource.options as { url: string }).url;
    for (const batchFirst of [true, false]) {
      const { shareId } = await newShare();
      const writer = new pg.Client({ connectionString: url });
      const deleter = new pg.Client({ connectionString: url });
      await Promise.all([writer.connect(), deleter.connect()]);
      try {
        if (batchFirst) {
          // The batch's write, inside a transaction held open so the delete meets it.
          await writer.query('BEGIN');
          await copyVisitBatch(writer, [visit(shareId), visit(shareId)], false);
          const deleted = deleter.query('DELETE FROM shares WHERE id = $1', [shareId]);
          await waitingForLock(deleter);
          await writer.query('COMMIT');
          await deleted;
        } else {
          await deleter.query('BEGIN');
          await deleter.query('DELETE FROM shares WHERE id = $1', [shareId]);
          const written = writeVisitBatch(writer, [visit(shareId), visit(shareId)]);
          await waitingForLock(writer);
          await deleter.query('COMMIT');
          await written;
        }
        expect(await logged(shareId)).toBe(0);
      } finally {
        await Promise.all([writer.end(), deleter.end()]);
      }
    }
  });

  it('a batch that meets a share deleted under it writes the visits and day counts of the other shares, once', async () => {
    const [gone, kept] = [await newShare(), await newShare()];
    const url = (db.dataSource.options as { url: string }).url;
    const writer = new pg.Client({ connectionString: url });
    const deleter = new pg.Client({ connectionString: url });
    await Promise.all([writer.connect(), deleter.connect()]);
    try {
      await deleter.query('BEGIN');
      await deleter.query('DELETE FROM shares WHERE id = $1', [gone.shareId]);
      const written = writeVisitBatch(writer, [visit(kept.shareId), visit(gone.shareId), visit(kept.shareId)]);
      await waitingForLock(writer);
      await deleter.query('COMMIT');
      await written;
    } finally {
      await Promise.all([writer.end(), deleter.end()]);
    }
    expect([await logged(gone.shareId), await logged(kept.shareId)]).toEqual([0, 2]);
    const days = await sql('SELECT share_id, human FROM share_visit_days WHERE share_id = ANY($1::uuid[])', [
      [gone.shareId, kept.shareId],
    ]);
    expect(days).toEqual([{ share_id: kept.shareId, human: 2 }]);
  });

  it("a batch's lock never waits for an admission in flight, nor an admission for it", async () => {
    const { shareId } = await newShare();
    const url = (db.dataSource.options as { url: string }).url;
    const admitting = new pg.Client({ connectionString: url });
    await admitting.connect();
    try {
      await admitting.query('BEGIN');
      await admitting.query(`SELECT * FROM share_admit_visits($1, ARRAY['k'], ARRAY[NULL]::uuid[], ARRAY[NULL])`, [shareId]);
      // The admission holds its share row lock; the batch writes beside it and commits.
      await sql(`SET lock_timeout = '2s'`);
      await log.insertAll([visit(shareId)]);
      await admitting.query('COMMIT');
    } finally {
      await sql('RESET lock_timeout');
      await admitting.end();
    }
    expect(await logged(shareId)).toBe(1);
  });

  it('down() restores the foreign key, dropping visits of shares that are gone, and up() again', async () => {
    const migration = new VisitLogWrites1763700001900();
    const runner = db.dataSource.createQueryRunner();
    try {
      const { shareId } = await newShare();
      await log.insertAll([visit(shareId)]);
      await migration.down(runner);
      const lock = async () =>
        (await sql(`SELECT pg_get_functiondef('share_admit_visits(uuid, text[], uuid[], text[])'::regprocedure) AS d`))[0].d;
      expect(await lock()).toContain('FOR UPDATE;');
      await sql('DELETE FROM shares WHERE id = $1', [shareId]);
      expect(await logged(shareId)).toBe(0);
      await migration.up(runner);
      expect(await lock()).toContain('FOR NO KEY UPDATE;');
      expect(await sql(`SELECT 1 FROM pg_constraint WHERE conname = 'share_visit_log_share_id_fkey'`)).toEqual([]);
    } finally {
      await runner.release();
    }
  });
});
