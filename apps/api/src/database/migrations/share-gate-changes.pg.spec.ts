import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { ShareGateChanges1763700001800 } from './1763700001800-share-gate-changes.js';

let db: TestDatabase;
let listener: pg.Client;
let ownerId: string;
let heard: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
  listener = new pg.Client({ connectionString: (db.dataSource.options as { url: string }).url });
  await listener.connect();
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query('LISTEN sharedown_changes');
});
afterAll(async () => {
  await listener?.end();
  await db?.drop();
});

const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

/**
 * The `shares:` notifications a change sent, once it has committed (a round trip on the listener lets them in).
 * A round trip before the change lets in what the setup announced (creating the share), which may still be on its
 * way to the listener's socket, so it is not taken for the change's own.
 */
async function announcedBy(change: () => Promise<unknown>): Promise<string[]> {
  await listener.query('SELECT 1');
  heard = [];
  await change();
  await listener.query('SELECT 1');
  return heard.filter((payload) => payload.startsWith('shares:'));
}

async function sharedFile(): Promise<{ fileId: string; versionId: string; shareId: string; folderId: string }> {
  const [{ id: folderId }] = await sql(`INSERT INTO folders (user_id, name) VALUES ($1, $2) RETURNING id`, [
    ownerId,
    `f${Math.random().toString(36).slice(2, 10)}`,
  ]);
  const [{ id: fileId }] = await sql(
    `INSERT INTO files (user_id, folder_id, name, kind) VALUES ($1, $2, 'a.md', 'MARKDOWN') RETURNING id`,
    [ownerId, folderId],
  );
  const [{ id: versionId }] = await sql(
    `INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
     VALUES ($1, 1, '# a', 3, 'x', 'CLEAN') RETURNING id`,
    [fileId],
  );
  await sql('UPDATE files SET current_version_id = $2 WHERE id = $1', [fileId, versionId]);
  const [{ id: shareId }] = await sql(`INSERT INTO shares (user_id, file_id, token) VALUES ($1, $2, $3) RETURNING id`, [
    ownerId,
    fileId,
    `t${Math.random().toString(36).slice(2, 12)}`,
  ]);
  return { fileId, versionId, shareId, folderId };
}

describe('share gate change notifications', () => {
  it("announces what a gate row shows, by the owner's id, and not the visit counters or a rendering", async () => {
    const { fileId, versionId, shareId, folderId } = await sharedFile();
    const owner = [`shares:${ownerId}`];
    expect(await announcedBy(() => sql('UPDATE shares SET revoked_at = now() WHERE id = $1', [shareId]))).toEqual(owner);
    expect(
      await announcedBy(() => sql(`UPDATE shares SET expires_at = now() + interval '1 day' WHERE id = $1`, [shareId])),
    ).toEqual(owner);
    expect(await announcedBy(() => sql(`UPDATE files SET name = 'b.md' WHERE id = $1`, [fileId]))).toEqual(owner);
    expect(await announcedBy(() => sql(`UPDATE folders SET deleted_at = now() WHERE id = $1`, [folderId]))).toEqual(owner);
    expect(await announcedBy(() => sql(`UPDATE file_versions SET scan_status = 'INFECTED' WHERE id = $1`, [versionId]))).toEqual(
      owner,
    );
    // Every admission writes the counters, and the first view writes the rendering: neither changes what a view shows.
    expect(
      await announcedBy(() =>
        sql('UPDATE shares SET visit_count = visit_count + 3, unique_visit_count = 2 WHERE id = $1', [shareId]),
      ),
    ).toEqual([]);
    expect(await announcedBy(() => sql(`UPDATE file_versions SET rendered_html = 'x' WHERE id = $1`, [versionId]))).toEqual([]);
    // An admission that uses the link up, or binds it to a session, is announced.
    expect(
      await announcedBy(() =>
        sql('UPDATE shares SET visit_count = visit_count + 1, consumed_at = now() WHERE id = $1', [shareId]),
      ),
    ).toEqual(owner);
    expect(
      await announcedBy(() =>
        sql(`UPDATE shares SET visit_count = visit_count + 1, session_owner = 'b1' WHERE id = $1`, [shareId]),
      ),
    ).toEqual(owner);
    // An update that changes nothing announces nothing.
    expect(await announcedBy(() => sql('UPDATE files SET name = name WHERE id = $1', [fileId]))).toEqual([]);
    expect(await announcedBy(() => sql('DELETE FROM shares WHERE id = $1', [shareId]))).toEqual(owner);
  });

  it('announces nothing for a change that rolls back', async () => {
    const { shareId } = await sharedFile();
    const announced = await announcedBy(async () => {
      const runner = db.dataSource.createQueryRunner();
      await runner.startTransaction();
      await runner.query('UPDATE shares SET revoked_at = now() WHERE id = $1', [shareId]);
      await runner.rollbackTransaction();
      await runner.release();
    });
    expect(announced).toEqual([]);
  });

  it('adds the expiry to the gate row, and goes back down and up', async () => {
    const { shareId } = await sharedFile();
    await sql(`UPDATE shares SET expires_at = '2030-01-02T03:04:05Z' WHERE id = $1`, [shareId]);
    const [gate] = await sql('SELECT expires_at FROM share_gate WHERE id = $1', [shareId]);
    expect(new Date(gate.expires_at).toISOString()).toBe('2030-01-02T03:04:05.000Z');
    const migration = new ShareGateChanges1763700001800();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await announcedBy(() => sql('UPDATE shares SET revoked_at = now() WHERE id = $1', [shareId]))).toEqual([]);
      await migration.up(runner);
      expect(await announcedBy(() => sql('UPDATE shares SET revoked_at = NULL WHERE id = $1', [shareId]))).toEqual([
        `shares:${ownerId}`,
      ]);
    } finally {
      await runner.release();
    }
  });
});
