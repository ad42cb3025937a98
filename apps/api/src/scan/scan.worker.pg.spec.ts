import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../common/runtime.js';
import { ChangeFeed } from '../database/change-feed.js';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import type { Metrics } from '../metrics/metrics.js';
import type { QueueService } from '../queue/queue.service.js';
import type { ScanJobData, ScanQueue } from './scan-queue.js';
import { ScanRepository } from './scan.repository.js';
import { ScanSettlements } from './scan-settlements.js';
import { ScanWorker } from './scan.worker.js';
import type { Scanner, ScanVerdict } from './scanner.js';

describe(`${ScanWorker.name} settling versions`, () => {
  let database: TestDatabase;
  let db: DataSource;
  let feed: ChangeFeed;
  let heard: Array<string | null>;
  let ownerId: string;
  let fileId: string;
  let verdict: ScanVerdict = { infected: false };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    // Never connected: whatever its listeners hear comes from this process, not from the database.
    feed = new ChangeFeed({ databaseUrl: (db.options as { url: string }).url } as Runtime);
    heard = [];
    feed.subscribe('shares', (key) => heard.push(key));
    ownerId = (await createTestUser(db)).id;
    ({ fileId } = await createTestShare(db, ownerId));
  });
  afterAll(async () => {
    await database?.drop();
  });

  function worker(): ScanWorker {
    const scanner: Scanner = { name: 'test', scan: async () => verdict };
    return new ScanWorker(
      new ScanRepository(db),
      {} as QueueService,
      {} as ScanQueue,
      scanner,
      { env: { ROLE: 'all' } } as Runtime,
      { observeScan: () => undefined } as unknown as Metrics,
      feed,
      new ScanSettlements(),
    );
  }

  async function pendingVersion(versionNo: number): Promise<string> {
    const [version]: Array<{ id: string }> = await db.query(
      `INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
       VALUES ($1, $2, 'text', 4, 'x', 'PENDING') RETURNING id`,
      [fileId, versionNo],
    );
    return version!.id;
  }

  const job = (versionId: string) => ({ data: { versionId }, attemptsMade: 0 }) as Job<ScanJobData>;
  const statusOf = async (versionId: string) =>
    ((await db.query(`SELECT scan_status FROM file_versions WHERE id = $1`, [versionId])) as Array<{ scan_status: string }>)[0]!
      .scan_status;

  it.each([
    ['CLEAN', { infected: false }],
    ['INFECTED', { infected: true, signature: 'Test.Sig' }],
  ] as const)(
    "records a %s verdict and tells this process's gate rows at once, naming the file's owner",
    async (status, scanned) => {
      verdict = scanned;
      heard = [];
      const versionId = await pendingVersion(status === 'CLEAN' ? 1 : 2);
      await worker().process(job(versionId));
      expect(await statusOf(versionId)).toBe(status);
      expect(heard).toEqual([ownerId]);
    },
  );

  it('keeps a settled verdict, and announces nothing when it settles nothing', async () => {
    verdict = { infected: false };
    const versionId = await pendingVersion(3);
    await worker().process(job(versionId));
    heard = [];
    expect(await new ScanRepository(db).settle(versionId, 'INFECTED', 'Late.Sig')).toBeNull();
    expect(await statusOf(versionId)).toBe('CLEAN');
    await worker().process(job(versionId));
    expect(heard).toEqual([]);
  });
});
