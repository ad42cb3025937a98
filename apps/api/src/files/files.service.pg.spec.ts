import { AuditLog } from '../audit/audit-log.js';
import { AuditRepository } from '../audit/audit.repository.js';
import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../auth/auth-context.js';
import { Administrators } from '../auth/accounts/administrators.js';
import { UsersRepository } from '../auth/accounts/users.repository.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import type { QueueService } from '../queue/queue.service.js';
import { ScanQueue } from '../scan/scan-queue.js';
import { FilesRepository } from './files.repository.js';
import { FilesService, type UploadInput } from './files.service.js';
import { decodeDocument } from './upload-reader.js';

/** The scan queue as the service sees it: remembers which versions were queued. */
class RecordingQueues {
  scanned: string[] = [];
  queue(name: string) {
    expect(name).toBe('scan');
    return {
      addBulk: async (jobs: Array<{ data: { versionId: string } }>) =>
        this.scanned.push(...jobs.map((job) => job.data.versionId)),
    };
  }
}

function documentNamed(filename: string, content = '# Notes\n'): UploadInput {
  return { document: decodeDocument(filename, Buffer.from(content, 'utf8')) };
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
  if (!(error instanceof AppError)) throw error;
  return error.code;
}

describe(FilesService.name, () => {
  let database: TestDatabase;
  let users: UsersRepository;
  let queues: RecordingQueues;
  let user: AuthUser;
  let sut: FilesService;

  const usedBytes = async () => (await users.findById(user.id))!.usedBytes;

  beforeAll(async () => {
    database = await createTestDatabase();
    users = new UsersRepository(database.dataSource, new Administrators([], false));
  });
  afterAll(() => database?.drop());

  beforeEach(async () => {
    user = await createTestUser(database.dataSource, { quotaBytes: 100 });
    queues = new RecordingQueues();
    const db = database.dataSource;
    sut = new FilesService(
      db,
      new FilesRepository(db),
      new ScanQueue(queues as unknown as QueueService),
      new AuditLog(new AuditRepository(db)),
    );
  });

  it('stores a file with its first version, charges the quota and queues the version for scanning', async () => {
    const outcome = await sut.upload(user, documentNamed('notes.md', '# Notes\n'));

    expect(outcome.result).toBe('created');
    expect(await sut.get(user.id, outcome.file.id)).toMatchObject({
      name: 'notes.md',
      kind: 'MARKDOWN',
      sizeBytes: 8,
      scanStatus: 'PENDING',
    });
    expect((await sut.listVersions(user.id, outcome.file.id)).versions.map((version) => version.id)).toEqual([outcome.versionId]);
    expect(await usedBytes()).toBe(8);
    expect(queues.scanned).toEqual([outcome.versionId]);
  });

  it('answers a taken name by the conflict mode: refuse, rename, or add a version', async () => {
    const first = await sut.upload(user, documentNamed('report.md', 'one'));

    expect(await codeOf(sut.upload(user, documentNamed('report.md', 'two')))).toBe('DUPLICATE');
    const renamed = await sut.upload(user, { ...documentNamed('report.md', 'three'), conflict: 'rename' });
    const overwritten = await sut.upload(user, { ...documentNamed('report.md', 'four'), conflict: 'overwrite' });

    expect(renamed).toMatchObject({ result: 'renamed', file: { name: 'report (1).md' } });
    expect(overwritten).toMatchObject({ result: 'overwritten', file: { id: first.file.id, name: 'report.md' } });
    expect((await sut.listVersions(user.id, first.file.id)).versions).toHaveLength(2);
    expect((await sut.list(user.id)).map((file) => file.name).sort()).toEqual(['report (1).md', 'report.md']);
    expect(await usedBytes()).toBe(3 + 5 + 4);
  });

  it('stores nothing and charges nothing over the quota', async () => {
    await sut.upload(user, documentNamed('fits.txt', 'x'.repeat(60)));

    expect(await codeOf(sut.upload(user, documentNamed('too-big.txt', 'y'.repeat(41))))).toBe('OVER_QUOTA');
    expect((await sut.list(user.id)).map((file) => file.name)).toEqual(['fits.txt']);
    expect(await usedBytes()).toBe(60);
    expect(queues.scanned).toHaveLength(1);
  });

  it('undoes the whole upload when the work done inside its transaction fails', async () => {
    const failing = sut.upload(user, documentNamed('with-share.md'), async () => {
      throw new AppError(ErrorCode.SLUG_TAKEN);
    });

    expect(await codeOf(failing)).toBe('SLUG_TAKEN');
    expect(await sut.list(user.id)).toEqual([]);
    expect(await usedBytes()).toBe(0);
    expect(queues.scanned).toEqual([]);
  });

  it('lets exactly one of many parallel uploads of a name create it; renaming uploads each get a name of their own', async () => {
    const refused = await Promise.allSettled(Array.from({ length: 8 }, () => sut.upload(user, documentNamed('race.md', 'r'))));
    expect(refused.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const reasons = refused.flatMap((result) => (result.status === 'rejected' ? [(result.reason as AppError).code] : []));
    expect(reasons).toEqual(Array(7).fill('DUPLICATE'));

    const renamed = await Promise.all(
      Array.from({ length: 8 }, () => sut.upload(user, { ...documentNamed('race.md', 'r'), conflict: 'rename' })),
    );
    expect(new Set(renamed.map((outcome) => outcome.file.name)).size).toBe(8);
    expect((await sut.list(user.id)).filter((file) => file.name.startsWith('race'))).toHaveLength(9);
    expect(await usedBytes()).toBe(9);
  });
});
