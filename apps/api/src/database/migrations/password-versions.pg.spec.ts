import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { PasswordVersions1763700002200 } from './1763700002200-password-versions.js';

let db: TestDatabase;
let ownerId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
});
afterAll(async () => {
  await db?.drop();
});

const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

async function aShare(passwordHash: string | null): Promise<string> {
  const [{ id: fileId }] = await sql(`INSERT INTO files (user_id, name, kind) VALUES ($1, $2, 'MARKDOWN') RETURNING id`, [
    ownerId,
    `f${Math.random().toString(36).slice(2, 10)}.md`,
  ]);
  const [{ id }] = await sql(`INSERT INTO shares (user_id, file_id, token, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`, [
    ownerId,
    fileId,
    `t${Math.random().toString(36).slice(2, 12)}`,
    passwordHash,
  ]);
  return id;
}

const versionOf = async (id: string): Promise<number> =>
  (await sql('SELECT password_version FROM share_gate WHERE id = $1', [id]))[0].password_version;

describe(PasswordVersions1763700002200.name, () => {
  it('starts every share at version 0 and raises it at each write of the password, never at other writes', async () => {
    const id = await aShare('$argon2id$first');
    expect(await versionOf(id)).toBe(0);
    await sql(`UPDATE shares SET max_visits = 5, password_hash = password_hash WHERE id = $1`, [id]);
    expect(await versionOf(id)).toBe(0);
    await sql(`UPDATE shares SET password_hash = '$argon2id$second' WHERE id = $1`, [id]);
    expect(await versionOf(id)).toBe(1);
    await sql(`UPDATE shares SET password_hash = NULL WHERE id = $1`, [id]);
    expect(await versionOf(id)).toBe(2);
    await sql(`UPDATE shares SET password_hash = '$argon2id$third' WHERE id = $1`, [id]);
    expect(await versionOf(id)).toBe(3);
  });

  it('cannot be set back by a writer: the version follows the password alone', async () => {
    const id = await aShare('$argon2id$first');
    await sql(`UPDATE shares SET password_hash = '$argon2id$second', password_version = 0 WHERE id = $1`, [id]);
    expect(await versionOf(id)).toBe(1);
  });
});
