import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { NfcNames1763700002300 } from './1763700002300-nfc-names.js';

let db: TestDatabase;
const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

const NFC = 'caf\u00e9.md';
const NFD = 'cafe\u0301.md';

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

async function undoThroughNfcNames(): Promise<void> {
  // The migrations after it are undone first, as they would be.
  const last = async () => (await sql('SELECT name FROM migrations ORDER BY id DESC LIMIT 1'))[0]?.name as string | undefined;
  while ((await last()) !== 'NfcNames1763700002300') await db.dataSource.undoLastMigration({ transaction: 'all' });
  await db.dataSource.undoLastMigration({ transaction: 'all' });
}

async function folder(userId: string, name: string, parentId: string | null = null, trashed = false): Promise<string> {
  const [{ id }] = await sql(
    `INSERT INTO folders (user_id, parent_id, name, deleted_at) VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END) RETURNING id`,
    [userId, parentId, name, trashed],
  );
  return id;
}

async function file(
  userId: string,
  name: string,
  folderId: string | null = null,
  options: { trashed?: boolean; age?: number } = {},
) {
  const [{ id }] = await sql(
    `INSERT INTO files (user_id, folder_id, name, kind, created_at, deleted_at)
     VALUES ($1, $2, $3, 'MARKDOWN', now() - make_interval(secs => $4), CASE WHEN $5 THEN now() END) RETURNING id`,
    [userId, folderId, name, options.age ?? 0, options.trashed === true],
  );
  return id as string;
}

const nameOf = async (table: 'files' | 'folders', id: string) =>
  (await sql(`SELECT name FROM ${table} WHERE id = $1`, [id]))[0].name as string;

/** Runs the migration's `up` in a transaction of its own, with its log collected. */
async function migrate(): Promise<string[]> {
  const lines: string[] = [];
  const runner = db.dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await new NfcNames1763700002300((line) => lines.push(line)).up(runner);
    await runner.commitTransaction();
  } finally {
    await runner.release();
  }
  return lines;
}

describe('the NFC names migration', () => {
  let userId: string;
  let otherId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    userId = (await createTestUser(db.dataSource)).id;
    otherId = (await createTestUser(db.dataSource)).id;
    await undoThroughNfcNames();
    // Before this migration both spellings could live side by side.
    ids.nfcFile = await file(userId, NFC, null, { age: 10 });
    ids.nfdTwin = await file(userId, NFD, null, { age: 20 });
    ids.alone = await file(userId, 'r\u0065\u0301sum\u0065\u0301.md');
    // Case differs: the index is case-sensitive, so `CAFÉ.md` is no collision with `café.md`.
    ids.upper = await file(userId, 'CAFE\u0301.md');
    ids.trashedTwin = await file(userId, NFD, null, { trashed: true });
    ids.otherUser = await file(otherId, NFD);
    // Three spellings of ệ, none of them NFC: the oldest takes the NFC name, the two others stay.
    ids.room = await folder(userId, 'Room');
    ids.oldest = await file(userId, 'e\u0323\u0302.md', ids.room, { age: 30 });
    ids.middle = await file(userId, 'e\u0302\u0323.md', ids.room, { age: 20 });
    ids.newest = await file(userId, '\u00ea\u0323.md', ids.room, { age: 10 });
    ids.sameNameElsewhere = await file(userId, NFD, ids.room);
    // Folders: a live NFD folder beside an NFC one, another one alone, a trashed one.
    ids.nfcFolder = await folder(userId, 'Caf\u00e9');
    ids.nfdFolder = await folder(userId, 'Cafe\u0301');
    ids.subFolder = await folder(userId, 'Cafe\u0301', ids.room);
    ids.trashedFolder = await folder(userId, 'Cafe\u0301', null, true);
  });

  it('normalises every name it can, keeps both rows of each collision and lists each kept one in its log', async () => {
    const lines = await migrate();
    expect(await nameOf('files', ids.nfcFile!)).toBe(NFC);
    expect(await nameOf('files', ids.nfdTwin!)).toBe(NFD);
    expect(await nameOf('files', ids.alone!)).toBe('r\u00e9sum\u00e9.md');
    expect(await nameOf('files', ids.upper!)).toBe('CAF\u00c9.md');
    expect(await nameOf('files', ids.trashedTwin!)).toBe(NFC);
    expect(await nameOf('files', ids.otherUser!)).toBe(NFC);
    expect(await nameOf('files', ids.oldest!)).toBe('\u1ec7.md');
    expect(await nameOf('files', ids.middle!)).toBe('e\u0302\u0323.md');
    expect(await nameOf('files', ids.newest!)).toBe('\u00ea\u0323.md');
    expect(await nameOf('files', ids.sameNameElsewhere!)).toBe(NFC);
    expect(await nameOf('folders', ids.nfcFolder!)).toBe('Caf\u00e9');
    expect(await nameOf('folders', ids.nfdFolder!)).toBe('Cafe\u0301');
    expect(await nameOf('folders', ids.subFolder!)).toBe('Caf\u00e9');
    expect(await nameOf('folders', ids.trashedFolder!)).toBe('Caf\u00e9');

    expect(lines).toEqual([
      `NFC names: kept folder ${ids.nfdFolder} named "Cafe\\u0301" un-normalised: its NFC form is the name of folder ${ids.nfcFolder} beside it (user ${userId}, parent folder top level)`,
      expect.stringContaining(`kept file `),
      expect.stringContaining(`kept file `),
      expect.stringContaining(`kept file `),
      'NFC names: 8 names normalised, 4 kept un-normalised because of a collision',
    ]);
    const files = lines.slice(1, 4).join('\n');
    expect(files).toContain(
      `kept file ${ids.nfdTwin} named "cafe\\u0301.md" un-normalised: its NFC form is the name of file ${ids.nfcFile} beside it (user ${userId}, folder top level)`,
    );
    expect(files).toContain(
      `kept file ${ids.middle} named "e\\u0302\\u0323.md" un-normalised: its NFC form is the name of file ${ids.oldest}`,
    );
    expect(files).toContain(
      `kept file ${ids.newest} named "\\u00ea\\u0323.md" un-normalised: its NFC form is the name of file ${ids.oldest}`,
    );
    expect(files).toContain(`(user ${userId}, folder ${ids.room})`);
  });

  it('changes nothing more when run again, and lists the same rows', async () => {
    const before = await sql('SELECT id, name FROM files UNION ALL SELECT id, name FROM folders ORDER BY id');
    const lines = await migrate();
    expect(await sql('SELECT id, name FROM files UNION ALL SELECT id, name FROM folders ORDER BY id')).toEqual(before);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('NFC names: 0 names normalised, 4 kept un-normalised because of a collision');
  });

  it('runs as a registered migration, logging through the service log', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      await db.dataSource.runMigrations({ transaction: 'all' });
      const names = (await sql('SELECT name FROM migrations ORDER BY id')).map((row: { name: string }) => row.name);
      expect(names).toContain('NfcNames1763700002300');
      expect(warn.mock.calls.map(([line]) => line)).toContain(
        'NFC names: 0 names normalised, 4 kept un-normalised because of a collision',
      );
    } finally {
      warn.mockRestore();
    }
  });
});
