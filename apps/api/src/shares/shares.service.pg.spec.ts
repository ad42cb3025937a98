import { AuditLog } from '../audit/audit-log.js';
import { AuditRepository } from '../audit/audit.repository.js';
import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../auth/auth-context.js';
import { AppError } from '../common/app-error.js';
import type { Runtime } from '../common/runtime.js';
import { loadEnv } from '../config/env.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { FilesRepository } from '../files/files.repository.js';
import { FilesService } from '../files/files.service.js';
import { FoldersRepository } from '../files/folders/folders.repository.js';
import { FoldersService } from '../files/folders/folders.service.js';
import { decodeDocument } from '../files/upload-reader.js';
import type { QueueService } from '../queue/queue.service.js';
import { ScanQueue } from '../scan/scan-queue.js';
import { SharesRepository } from './shares.repository.js';
import { SharesService } from './shares.service.js';

const noScans = { queue: () => ({ addBulk: async () => [] }) } as unknown as QueueService;
const runtime: Runtime = {
  env: loadEnv({ PUBLIC_URL: 'https://share.example' }),
  databaseUrl: 'unused',
  sessionSecret: 'x'.repeat(32),
};

async function codeOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
  if (!(error instanceof AppError)) throw error;
  return error.code;
}

describe(SharesService.name, () => {
  let database: TestDatabase;
  let files: FilesService;
  let alice: AuthUser;
  let bob: AuthUser;
  let fileId: string;
  let sut: SharesService;
  let folders: FoldersService;

  const upload = async (user: AuthUser, filename: string, content = '# doc') =>
    files.upload(user, { document: decodeDocument(filename, Buffer.from(content)), conflict: 'rename' });

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.dataSource;
    files = new FilesService(db, new FilesRepository(db), new ScanQueue(noScans), new AuditLog(new AuditRepository(db)));
    sut = new SharesService(db, new SharesRepository(db), runtime, new AuditLog(new AuditRepository(db)));
    folders = new FoldersService(db, new FilesRepository(db), new FoldersRepository(db), new AuditLog(new AuditRepository(db)));
  });
  afterAll(() => database?.drop());

  beforeEach(async () => {
    [alice, bob] = await Promise.all([createTestUser(database.dataSource), createTestUser(database.dataSource)]);
    fileId = (await upload(alice, 'notes.md')).file.id;
  });

  it('creates a link with its implied settings and keeps the password only as an argon2id hash', async () => {
    const created = await sut.create(alice, {
      fileId,
      oneTime: true,
      maxVisits: 40,
      emailAllowlist: [' Ann@Example.com '],
      password: 'open-sesame',
    });

    expect(created.share).toMatchObject({ oneTime: true, maxVisits: 1, requireLogin: true, hasPassword: true, revokedAt: null });
    expect(created.url).toBe(`https://share.example/s/${alice.segment}/${created.share.token}`);
    expect(created.share.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const [row] = await database.dataSource.query('SELECT password_hash, email_allowlist FROM shares WHERE id = $1', [
      created.share.id,
    ]);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('open-sesame');
    expect(row.email_allowlist).toEqual(['ann@example.com']);
  });

  it('gives a slug to exactly one link, whatever its case, even to parallel creations by different users', async () => {
    const bobsFile = (await upload(bob, 'bob.md')).file.id;
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? sut.create(alice, { fileId, slug: i % 4 === 1 ? 'Team-Notes' : 'team-notes' })
          : sut.create(bob, { fileId: bobsFile, slug: 'TEAM-notes' }),
      ),
    );

    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts)
      if (attempt.status === 'rejected') expect((attempt.reason as AppError).code).toBe('SLUG_TAKEN');
    expect(await codeOf(sut.create(alice, { fileId, slug: '_login' }))).toBe('SLUG_TAKEN');
  });

  it('shares only a live file of the caller that is not quarantined, and pins only its own versions', async () => {
    const trashed = (await upload(alice, 'trashed.md')).file.id;
    await files.trash(alice.id, trashed);
    const quarantined = await upload(alice, 'eicar.md');
    await database.dataSource.query(`UPDATE file_versions SET scan_status = 'INFECTED' WHERE id = $1`, [quarantined.versionId]);
    const other = await upload(alice, 'other.md');

    expect(await codeOf(sut.create(bob, { fileId }))).toBe('NOT_FOUND');
    expect(await codeOf(sut.create(alice, { fileId: trashed }))).toBe('NOT_FOUND');
    expect(await codeOf(sut.create(alice, { fileId: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
    expect(await codeOf(sut.create(alice, { fileId: quarantined.file.id }))).toBe('INFECTED');
    expect(await codeOf(sut.create(alice, { fileId, lockedVersionId: other.versionId }))).toBe('VALIDATION');
    expect(await sut.list(alice.id)).toEqual([]);
  });

  it('revokes once: a second revocation keeps the first time, and nobody else can revoke', async () => {
    const { share } = await sut.create(alice, { fileId });

    expect(await codeOf(sut.revoke(bob.id, share.id))).toBe('NOT_FOUND');
    expect((await sut.get(alice.id, share.id)).revokedAt).toBeNull();
    const revoked = await sut.revoke(alice.id, share.id);
    const again = await sut.revoke(alice.id, share.id);

    expect(revoked.revokedAt).not.toBeNull();
    expect(again.revokedAt).toBe(revoked.revokedAt);
    expect(await codeOf(sut.get(bob.id, share.id))).toBe('NOT_FOUND');
  });

  it('shares a folder as a collection: exactly one of fileId and folderId, never pinned, only a live folder of the caller', async () => {
    const folder = await folders.create(alice.id, 'handbook', null);
    const created = await sut.create(alice, { folderId: folder.id, maxVisits: 3 });

    expect(created.share).toMatchObject({ folderId: folder.id, folderName: 'handbook', maxVisits: 3 });
    expect(created.share).not.toHaveProperty('fileId');
    expect(await sut.list(alice.id, { folderId: folder.id })).toEqual([created.share]);
    expect(await sut.list(alice.id, { fileId })).toEqual([]);
    expect(await codeOf(sut.create(alice, { fileId, folderId: folder.id }))).toBe('VALIDATION');
    expect(await codeOf(sut.create(alice, {}))).toBe('VALIDATION');
    expect(await codeOf(sut.create(alice, { folderId: folder.id, lockedVersionId: 'x' }))).toBe('VALIDATION');
    expect(await codeOf(sut.create(bob, { folderId: folder.id }))).toBe('NOT_FOUND');
  });

  it('a collection created while its folder (or one above it) is trashed is either refused or revoked', async () => {
    for (let round = 0; round < 5; round++) {
      const top = await folders.create(alice.id, `top-${round}`, null);
      const inner = await folders.create(alice.id, 'inner', top.id);
      const [trashed, ...shared] = await Promise.allSettled([
        folders.trash(alice.id, top.id),
        ...Array.from({ length: 6 }, (_, i) => sut.create(alice, { folderId: i % 2 ? inner.id : top.id })),
      ]);
      expect(trashed.status).toBe('fulfilled');
      for (const attempt of shared) {
        if (attempt.status === 'rejected') expect((attempt.reason as AppError).code).toBe('NOT_FOUND');
        else expect((await sut.get(alice.id, attempt.value.share.id)).revokedAt).not.toBeNull();
      }
    }
  });
});
