import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import { DocumentReadsRepository } from './document-reads.repository.js';
import { testVisitLogEntry } from './visit-log-entry.fixture.js';
import { VisitLogRepository } from './visit-log.repository.js';

describe(DocumentReadsRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: DocumentReadsRepository;
  let shareId: string;
  let fileId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    sut = new DocumentReadsRepository(db);
    const user = await createTestUser(db);
    const [folder] = (await db.query(`INSERT INTO folders (user_id, name) VALUES ($1, 'shelf') RETURNING id`, [
      user.id,
    ])) as Array<{
      id: string;
    }>;
    const [file] = (await db.query(
      `INSERT INTO files (user_id, name, kind, folder_id) VALUES ($1, 'a.md', 'MARKDOWN', $2) RETURNING id`,
      [user.id, folder!.id],
    )) as Array<{ id: string }>;
    fileId = file!.id;
    const [share] = (await db.query(`INSERT INTO shares (user_id, folder_id, token) VALUES ($1, $2, $3) RETURNING id`, [
      user.id,
      folder!.id,
      randomUUID().replace(/-/g, ''),
    ])) as Array<{ id: string }>;
    shareId = share!.id;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const reads = async (visitId: string) =>
    (await db.query('SELECT file_id, duration_ms, scroll_depth, completed FROM share_document_reads WHERE visit_id = $1', [
      visitId,
    ])) as Array<{ file_id: string; duration_ms: number; scroll_depth: number; completed: boolean }>;

  it('notes a document once per visit, however often and in parallel it is opened', async () => {
    const visitId = randomUUID();
    await Promise.all(Array.from({ length: 20 }, () => sut.open(visitId, fileId, shareId)));
    expect(await reads(visitId)).toEqual([{ file_id: fileId, duration_ms: 0, scroll_depth: 0, completed: false }]);
  });

  it("raises a read's depth and completion, never lowers them, and bounds time by the time since it opened", async () => {
    const visitId = randomUUID();
    await sut.open(visitId, fileId, shareId);
    expect(await sut.engage(visitId, shareId, fileId, { durationMs: 60_000_000, scrollDepth: 0.8, completed: true })).toBe(true);
    expect(await sut.engage(visitId, shareId, fileId, { durationMs: 10, scrollDepth: 0.2, completed: false })).toBe(true);
    const [read] = await reads(visitId);
    expect(read).toMatchObject({ scroll_depth: expect.closeTo(0.8, 5), completed: true });
    expect(read!.duration_ms).toBeLessThan(60_000_000);
    expect(read!.duration_ms).toBeGreaterThan(0);
    // Another share's beacon cannot touch it.
    expect(await sut.engage(visitId, randomUUID(), fileId, { durationMs: 5, scrollDepth: 1, completed: true })).toBe(false);
  });

  it("without a read of that document, updates the visit's own row, as a single file's page does", async () => {
    const visitId = randomUUID();
    await new VisitLogRepository(db).insertAll([testVisitLogEntry(shareId, { id: visitId, userAgent: null })]);
    expect(await sut.engage(visitId, shareId, fileId, { durationMs: 100, scrollDepth: 0.5, completed: false })).toBe(true);
    const [visit] = (await db.query('SELECT scroll_depth FROM share_visit_log WHERE id = $1', [visitId])) as Array<{
      scroll_depth: number;
    }>;
    expect(visit!.scroll_depth).toBeCloseTo(0.5, 5);
    expect(await reads(visitId)).toEqual([]);
  });

  it('deletes reads past the retention period only', async () => {
    const [old, recent] = [randomUUID(), randomUUID()];
    await sut.open(old, fileId, shareId);
    await sut.open(recent, fileId, shareId);
    await db.query(`UPDATE share_document_reads SET at = now() - interval '40 days' WHERE visit_id = $1`, [old]);
    expect(await sut.deleteOlderThan(30)).toBe(1);
    expect(await reads(old)).toEqual([]);
    expect(await reads(recent)).toHaveLength(1);
  });
});
