import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import { SectionReadsRepository } from './section-reads.repository.js';
import { testVisitLogEntry } from './visit-log-entry.fixture.js';
import { VisitLogRepository, type VisitLogEntry } from './visit-log.repository.js';

describe(SectionReadsRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: SectionReadsRepository;
  let log: VisitLogRepository;
  let userId: string;
  let fileId: string;
  let shareId: string;

  const one = async <T>(sql: string, params: unknown[]): Promise<T> => ((await db.query(sql, params)) as T[])[0]!;

  async function file(name: string, kind = 'MARKDOWN', scan = 'CLEAN', folderId: string | null = null): Promise<string> {
    const { id } = await one<{ id: string }>(
      `INSERT INTO files (user_id, name, kind, folder_id) VALUES ($1, $2, $3, $4) RETURNING id`,
      [userId, name, kind, folderId],
    );
    const version = await one<{ id: string }>(
      `INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
       VALUES ($1, 1, '# x', 3, 'x', $2) RETURNING id`,
      [id, scan],
    );
    await db.query('UPDATE files SET current_version_id = $2 WHERE id = $1', [id, version.id]);
    return id;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    sut = new SectionReadsRepository(db);
    log = new VisitLogRepository(db);
    userId = (await createTestUser(db)).id;
    fileId = await file('a.md');
    shareId = (
      await one<{ id: string }>(`INSERT INTO shares (user_id, file_id, token) VALUES ($1, $2, $3) RETURNING id`, [
        userId,
        fileId,
        randomUUID().replace(/-/g, ''),
      ])
    ).id;
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function visit(overrides: Partial<VisitLogEntry> = {}): Promise<string> {
    const entry = testVisitLogEntry(shareId, { at: new Date(Date.now() - 60_000), ...overrides });
    await log.insertAll([entry]);
    return entry.id;
  }
  const reads = async (visitId: string) =>
    (await db.query('SELECT section, heading, ms FROM share_section_reads WHERE visit_id = $1 ORDER BY section', [
      visitId,
    ])) as Array<{ section: number; heading: string; ms: number }>;

  it('stores only what is possible within the time since the visit began, and only raises it', async () => {
    const id = await visit();
    // 60 s elapsed: 61 s allowed for one section, 244 s for all of a beacon's together.
    expect(
      await sut.record(id, shareId, fileId, [
        { section: 0, heading: 'A', ms: 5_000 },
        { section: 1, heading: 'B', ms: 90_000 },
      ]),
    ).toBe(1);
    expect(await sut.record(id, shareId, fileId, [{ section: 0, heading: 'A', ms: 3_000 }])).toBe(1);
    expect(await reads(id)).toEqual([{ section: 0, heading: 'A', ms: 5_000 }]);
    const together = [0, 1, 2, 3, 4].map((section) => ({ section, heading: `S${section}`, ms: 50_000 }));
    expect(await sut.record(id, shareId, fileId, together)).toBe(0);
    expect(await sut.record(id, shareId, fileId, together.slice(0, 4))).toBe(4);
    expect((await reads(id)).map((row) => row.ms)).toEqual([50_000, 50_000, 50_000, 50_000]);
  });

  it('writes nothing for an unmeasured visit, another share, or a visit not logged yet', async () => {
    const unmeasured = await visit({ measured: false });
    const read = [{ section: 0, heading: 'A', ms: 1_000 }];
    expect(await sut.record(unmeasured, shareId, fileId, read)).toBe(0);
    expect(await sut.record(await visit(), randomUUID(), fileId, read)).toBe(0);
    expect(await sut.record(randomUUID(), shareId, fileId, read)).toBe(0);
  });

  it("finds the version a share serves: its own file's, a collection document's newest CLEAN one (while in the folder), nothing else", async () => {
    const own = await sut.served(shareId, null);
    expect(own).toMatchObject({ fileId, fileName: 'a.md', kind: 'MARKDOWN' });
    expect(await sut.served(shareId, fileId)).toEqual(own);
    expect(await sut.served(shareId, randomUUID())).toBeNull();

    const folder = await one<{ id: string }>(`INSERT INTO folders (user_id, name) VALUES ($1, 'set') RETURNING id`, [userId]);
    const inside = await file('b.html', 'HTML', 'CLEAN', folder.id);
    const pending = await file('c.md', 'MARKDOWN', 'PENDING', folder.id);
    const collection = await one<{ id: string }>(
      `INSERT INTO shares (user_id, folder_id, token) VALUES ($1, $2, $3) RETURNING id`,
      [userId, folder.id, randomUUID().replace(/-/g, '')],
    );
    expect(await sut.served(collection.id, inside)).toMatchObject({ fileId: inside, fileName: 'b.html', kind: 'HTML' });
    expect((await sut.served(collection.id, inside))!.versionId).not.toBeNull();
    expect((await sut.served(collection.id, pending))!.versionId).toBeNull();
    const stranger = await createTestUser(db);
    const foreign = await one<{ id: string }>(
      `INSERT INTO files (user_id, name, kind) VALUES ($1, 'x.md', 'MARKDOWN') RETURNING id`,
      [stranger.id],
    );
    expect(await sut.served(collection.id, foreign.id)).toBeNull();
    // A document of the owner's outside the folder, or moved out of it, is not the collection's.
    expect(await sut.served(collection.id, fileId)).toBeNull();
    await db.query('UPDATE files SET folder_id = NULL WHERE id = $1', [inside]);
    expect(await sut.served(collection.id, inside)).toBeNull();
  });

  it('deletes section reads past the retention period', async () => {
    const id = await visit();
    await sut.record(id, shareId, fileId, [
      { section: 0, heading: 'A', ms: 1_000 },
      { section: 1, heading: 'B', ms: 1_000 },
    ]);
    await db.query(`UPDATE share_section_reads SET at = now() - interval '400 days' WHERE visit_id = $1 AND section = 0`, [id]);
    expect(await sut.deleteOlderThan(365, 1)).toBe(1);
    expect((await reads(id)).map((row) => row.section)).toEqual([1]);
  });
});
