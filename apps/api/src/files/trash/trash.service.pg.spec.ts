import { AuditLog } from '../../audit/audit-log.js';
import { AuditRepository } from '../../audit/audit.repository.js';
import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth/auth-context.js';
import { Administrators } from '../../auth/accounts/administrators.js';
import { UsersRepository } from '../../auth/accounts/users.repository.js';
import { AppError } from '../../common/app-error.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import type { QueueService } from '../../queue/queue.service.js';
import { ScanQueue } from '../../scan/scan-queue.js';
import { FilesRepository } from '../files.repository.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { FilesService } from '../files.service.js';
import { FoldersService } from '../folders/folders.service.js';
import { TrashService } from './trash.service.js';
import { decodeDocument } from '../upload-reader.js';

const noScans = { queue: () => ({ addBulk: async () => [] }) } as unknown as QueueService;

describe(TrashService.name, () => {
  let database: TestDatabase;
  let users: UsersRepository;
  let files: FilesService;
  let folders: FoldersService;
  let user: AuthUser;
  let sut: TrashService;

  const usedBytes = async () => (await users.findById(user.id))!.usedBytes;
  const upload = async (filename: string, content: string, folderId: string | null = null) =>
    (await files.upload(user, { document: decodeDocument(filename, Buffer.from(content, 'utf8')), folderId })).file;
  const liveNames = async () => (await files.list(user.id)).map((file) => file.name).sort();

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.dataSource;
    users = new UsersRepository(db, new Administrators([], false));
    const repository = new FilesRepository(db);
    files = new FilesService(db, repository, new ScanQueue(noScans), new AuditLog(new AuditRepository(db)));
    folders = new FoldersService(db, repository, new FoldersRepository(db), new AuditLog(new AuditRepository(db)));
    sut = new TrashService(db, repository, new FoldersRepository(db), files, new AuditLog(new AuditRepository(db)));
  });
  afterAll(() => database?.drop());

  beforeEach(async () => {
    user = await createTestUser(database.dataSource);
  });

  it('restores a file into its folder, or to the top level once the folder is gone, under a name still free', async () => {
    const folder = await folders.create(user.id, 'drafts', null);
    const inFolder = await upload('plan.md', 'a', folder.id);
    const atTop = await upload('notes.md', 'b');
    await files.trash(user.id, inFolder.id);
    await files.trash(user.id, atTop.id);
    await upload('notes.md', 'taken meanwhile');

    expect(await sut.restoreFile(user.id, atTop.id)).toEqual({ fileId: atTop.id, renamed: true });
    await folders.trash(user.id, folder.id);
    expect(await sut.restoreFile(user.id, inFolder.id)).toEqual({ fileId: inFolder.id, renamed: false });

    expect(await files.get(user.id, inFolder.id)).toMatchObject({ name: 'plan.md', folderId: null });
    expect(await liveNames()).toEqual(['notes (1).md', 'notes.md', 'plan.md']);
  });

  it('compares and stores names in NFC: restores under a free name beside a spelling that only looks different', async () => {
    const [nfc, nfd] = ['caf\u00e9.md', 'cafe\u0301.md'];
    const first = await upload(nfd, 'a');
    expect(first.name).toBe(nfc);
    await expect(upload(nfc, 'b')).rejects.toMatchObject({ code: 'DUPLICATE' });
    await files.trash(user.id, first.id);
    // A trashed row spelt as before the NFC migration, and a live one taking its name meanwhile.
    await database.dataSource.query('UPDATE files SET name = $2 WHERE id = $1', [first.id, nfd]);
    await upload(nfc, 'taken meanwhile');
    expect(await sut.restoreFile(user.id, first.id)).toEqual({ fileId: first.id, renamed: true });
    expect(await liveNames()).toEqual(['caf\u00e9 (1).md', nfc]);

    const folder = await folders.create(user.id, 'Cafe\u0301', null);
    expect(folder.name).toBe('Caf\u00e9');
    await expect(folders.create(user.id, 'Caf\u00e9', null)).rejects.toMatchObject({ code: 'DUPLICATE' });
    await folders.trash(user.id, folder.id);
    await database.dataSource.query('UPDATE folders SET name = $2 WHERE id = $1', [folder.id, 'Cafe\u0301']);
    await folders.create(user.id, 'Caf\u00e9', null);
    expect((await sut.restoreFolder(user.id, folder.id)).folder.name).toBe('Caf\u00e9 (1)');
  });

  it('restores a folder with what went to the trash with it, not what was trashed before', async () => {
    const folder = await folders.create(user.id, 'project', null);
    const earlier = await upload('old.md', 'old', folder.id);
    await upload('current.md', 'new', folder.id);
    await files.trash(user.id, earlier.id);
    await folders.trash(user.id, folder.id);

    expect((await sut.list(user.id)).files.map((file) => file.name)).toEqual(['old.md']);
    await sut.restoreFolder(user.id, folder.id);

    expect(await liveNames()).toEqual(['current.md']);
    expect((await sut.list(user.id)).files.map((file) => file.name)).toEqual(['old.md']);
  });

  it('frees the bytes of every version of a purged file, once, however many purges race', async () => {
    const file = await upload('big.txt', 'x'.repeat(100));
    await files.upload(user, { document: decodeDocument('big.txt', Buffer.from('y'.repeat(50))), conflict: 'overwrite' });
    await upload('kept.txt', 'k');
    await files.trash(user.id, file.id);

    const purges = await Promise.allSettled(Array.from({ length: 6 }, () => sut.purgeFile(user.id, file.id)));

    expect(purges.flatMap((purge) => (purge.status === 'fulfilled' ? [purge.value] : []))).toEqual([
      { purgedFiles: 1, freedBytes: 150 },
    ]);
    for (const purge of purges) if (purge.status === 'rejected') expect((purge.reason as AppError).code).toBe('NOT_FOUND');
    expect(await usedBytes()).toBe(1);
    // The trail has the deletion and exactly one purge: the refused purges rolled back with their events.
    const trail = await new AuditRepository(database.dataSource).page(user.id, 10);
    expect(trail.map((event) => [event.action, event.targetId])).toEqual([
      ['file.purged', file.id],
      ['file.deleted', file.id],
    ]);
    expect(trail[0]!.details).toEqual({ name: 'big.txt', freedBytes: 150 });
  });

  it('empties the trash of files trashed alone and inside trashed folders, and never touches a live file', async () => {
    const folder = await folders.create(user.id, 'gone', null);
    await upload('inside.md', 'iii', folder.id);
    const alone = await upload('alone.md', 'aa');
    await upload('live.md', 'l');
    await files.trash(user.id, alone.id);
    await folders.trash(user.id, folder.id);

    expect(await sut.purgeAll(user.id)).toEqual({ purgedFiles: 2, freedBytes: 5 });
    expect(await sut.list(user.id)).toEqual({ folders: [], files: [] });
    expect(await liveNames()).toEqual(['live.md']);
    expect(await usedBytes()).toBe(1);
    expect(await sut.purgeAll(user.id)).toEqual({ purgedFiles: 0, freedBytes: 0 });
  });
});
