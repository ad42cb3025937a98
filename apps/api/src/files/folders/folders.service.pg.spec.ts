import { AuditLog } from '../../audit/audit-log.js';
import { AuditRepository } from '../../audit/audit.repository.js';
import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth/auth-context.js';
import { AppError } from '../../common/app-error.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import type { QueueService } from '../../queue/queue.service.js';
import { ScanQueue } from '../../scan/scan-queue.js';
import type { FolderNodeDto } from '../dto/console-files.dto.js';
import { FilesRepository } from '../files.repository.js';
import { FoldersRepository } from './folders.repository.js';
import { FilesService } from '../files.service.js';
import { FoldersService } from './folders.service.js';
import { decodeDocument } from '../upload-reader.js';

const noScans = { queue: () => ({ addBulk: async () => [] }) } as unknown as QueueService;

/** The tree as nested names, children in the order the service gives them. */
type Shape = Array<string | [string, Shape]>;
function shapeOf(nodes: FolderNodeDto[]): Shape {
  return nodes.map((node) => (node.children.length ? [node.name, shapeOf(node.children)] : node.name));
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
  if (!(error instanceof AppError)) throw error;
  return error.code;
}

describe(FoldersService.name, () => {
  let database: TestDatabase;
  let files: FilesService;
  let user: AuthUser;
  let sut: FoldersService;

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.dataSource;
    const repository = new FilesRepository(db);
    files = new FilesService(db, repository, new ScanQueue(noScans), new AuditLog(new AuditRepository(db)));
    sut = new FoldersService(db, repository, new FoldersRepository(db), new AuditLog(new AuditRepository(db)));
  });
  afterAll(() => database?.drop());

  beforeEach(async () => {
    user = await createTestUser(database.dataSource);
  });

  it('builds the tree of live folders; trashing one takes its sub-folders and their files with it', async () => {
    const work = await sut.create(user.id, 'work', null);
    const reports = await sut.create(user.id, 'reports', work.id);
    const year = await sut.create(user.id, '2026', reports.id);
    await sut.create(user.id, 'home', null);
    await files.upload(user, { document: decodeDocument('q1.md', Buffer.from('q1')), folderId: year.id });
    await files.upload(user, { document: decodeDocument('top.md', Buffer.from('top')) });

    expect(shapeOf(await sut.tree(user.id))).toEqual(['home', ['work', [['reports', ['2026']]]]]);
    await sut.trash(user.id, reports.id);

    expect(shapeOf(await sut.tree(user.id))).toEqual(['home', 'work']);
    expect((await files.list(user.id)).map((file) => file.name)).toEqual(['top.md']);
    expect(await codeOf(files.list(user.id, year.id))).toBe('NOT_FOUND');
  });

  it('keeps names unique among the live folders of one parent', async () => {
    const parent = await sut.create(user.id, 'parent', null);
    const first = await sut.create(user.id, 'same', parent.id);

    expect(await codeOf(sut.create(user.id, 'same', parent.id))).toBe('DUPLICATE');
    expect(await sut.create(user.id, 'same', null)).toMatchObject({ name: 'same', parentId: null });
    expect(await codeOf(sut.update(user.id, first.id, { parentId: null }))).toBe('DUPLICATE');
    await sut.trash(user.id, first.id);
    expect(await sut.create(user.id, 'same', parent.id)).toMatchObject({ name: 'same', parentId: parent.id });
  });

  it('refuses to move a folder into itself or below itself, and leaves the tree as it was', async () => {
    const a = await sut.create(user.id, 'a', null);
    const b = await sut.create(user.id, 'b', a.id);
    const c = await sut.create(user.id, 'c', b.id);

    expect(await codeOf(sut.update(user.id, a.id, { parentId: a.id }))).toBe('CONFLICT');
    expect(await codeOf(sut.update(user.id, a.id, { parentId: c.id }))).toBe('CONFLICT');
    expect(shapeOf(await sut.tree(user.id))).toEqual([['a', [['b', ['c']]]]]);

    expect(await sut.update(user.id, c.id, { parentId: null, name: 'c-moved' })).toMatchObject({
      name: 'c-moved',
      parentId: null,
    });
    expect(shapeOf(await sut.tree(user.id))).toEqual([['a', ['b']], 'c-moved']);
  });

  it("answers another user's folder as missing, whatever the call", async () => {
    const other = await createTestUser(database.dataSource);
    const theirs = await sut.create(other.id, 'private', null);
    const mine = await sut.create(user.id, 'mine', null);

    expect(await codeOf(sut.create(user.id, 'inside', theirs.id))).toBe('NOT_FOUND');
    expect(await codeOf(sut.update(user.id, theirs.id, { name: 'taken over' }))).toBe('NOT_FOUND');
    expect(await codeOf(sut.update(user.id, mine.id, { parentId: theirs.id }))).toBe('NOT_FOUND');
    expect(await codeOf(sut.trash(user.id, theirs.id))).toBe('NOT_FOUND');
    expect(shapeOf(await sut.tree(other.id))).toEqual(['private']);
  });
});
