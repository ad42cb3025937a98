import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../test-database.fixture.js';

let db: TestDatabase;
let ownerId: string;
let folderId: string;
let fileId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
  [{ id: folderId }] = await db.dataSource.query(`INSERT INTO folders (user_id, name) VALUES ($1, 'Room') RETURNING id`, [
    ownerId,
  ]);
  [{ id: fileId }] = await db.dataSource.query(
    `INSERT INTO files (user_id, name, kind) VALUES ($1, 'a.md', 'MARKDOWN') RETURNING id`,
    [ownerId],
  );
});
afterAll(() => db?.drop());

async function share(target: { fileId?: string; folderId?: string }, agreement: string | null = null): Promise<string> {
  const token = `t${Math.random().toString(36).slice(2, 12)}`;
  const [{ id }] = await db.dataSource.query(
    'INSERT INTO shares (user_id, file_id, folder_id, token, agreement_text) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [ownerId, target.fileId ?? null, target.folderId ?? null, token, agreement],
  );
  return id;
}

describe('collections and agreements migration', () => {
  it('keeps the digest of the agreement text, whatever a writer sets', async () => {
    const id = await share({ fileId }, '我同意 — terms');
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const read = async () =>
      (await db.dataSource.query('SELECT agreement_sha256 FROM shares WHERE id = $1', [id]))[0].agreement_sha256;
    expect(await read()).toBe(digest('我同意 — terms'));
    await db.dataSource.query(`UPDATE shares SET agreement_sha256 = 'forged' WHERE id = $1`, [id]);
    expect(await read()).toBe(digest('我同意 — terms'));
    await db.dataSource.query('UPDATE shares SET agreement_text = NULL WHERE id = $1', [id]);
    expect(await read()).toBeNull();
  });

  it('takes exactly one of a file and a folder', async () => {
    await expect(share({})).rejects.toThrow(/shares_one_target/);
    await expect(share({ fileId, folderId })).rejects.toThrow(/shares_one_target/);
  });

  it('reads a collection through the gate row, and keeps it out of the one-round-trip admission', async () => {
    const id = await share({ folderId });
    const [gate] = await db.dataSource.query('SELECT * FROM share_gate WHERE id = $1', [id]);
    expect(gate).toMatchObject({
      folder_id: folderId,
      name: 'Room',
      kind: null,
      trashed: false,
      scan_status: 'CLEAN',
      version_id: null,
    });
    const [{ token }] = await db.dataSource.query('SELECT token FROM shares WHERE id = $1', [id]);
    const opened = await db.dataSource.query('SELECT idx, outcome FROM share_open_visits($1, NULL, $2::text[])', [token, ['v1']]);
    expect(opened).toEqual([{ idx: 0, outcome: null }]);
    await db.dataSource.query('UPDATE folders SET deleted_at = now() WHERE id = $1', [folderId]);
    const [again] = await db.dataSource.query('SELECT trashed FROM share_gate WHERE id = $1', [id]);
    expect(again.trashed).toBe(true);
    await db.dataSource.query('UPDATE folders SET deleted_at = NULL WHERE id = $1', [folderId]);
  });

  it('undoes and redoes cleanly', async () => {
    // The migrations after it are undone first, as they would be.
    const last = async () =>
      (await db.dataSource.query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1'))[0]?.name as string | undefined;
    while ((await last()) !== 'CollectionsAgreements1763700001700') await db.dataSource.undoLastMigration({ transaction: 'all' });
    await db.dataSource.undoLastMigration({ transaction: 'all' });
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'shares' AND column_name = 'folder_id'`,
    );
    expect(n).toBe(0);
    await db.dataSource.runMigrations({ transaction: 'all' });
    const [{ m }] = await db.dataSource.query(
      `SELECT count(*)::int AS m FROM information_schema.columns WHERE table_name = 'shares' AND column_name = 'folder_id'`,
    );
    expect(m).toBe(1);
  });
});
