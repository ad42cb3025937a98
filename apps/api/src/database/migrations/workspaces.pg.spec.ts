import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Administrators } from '../../auth/accounts/administrators.js';
import { ApiTokensRepository } from '../../auth/tokens/api-tokens.repository.js';
import { createTestDatabase, type TestDatabase } from '../test-database.fixture.js';
import { Workspaces1763700002500 } from './1763700002500-workspaces.js';

let db: TestDatabase;
const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

/** Undoes the migrations down to (and including) the workspaces one: the schema of the release before it. */
async function undoThroughWorkspaces(): Promise<void> {
  const last = async () => (await sql('SELECT name FROM migrations ORDER BY id DESC LIMIT 1'))[0]?.name as string | undefined;
  while ((await last()) !== 'Workspaces1763700002500') await db.dataSource.undoLastMigration({ transaction: 'all' });
  await db.dataSource.undoLastMigration({ transaction: 'all' });
}

describe(Workspaces1763700002500.name, () => {
  it('upgrades an instance in place: every account is its personal workspace, every object keeps its id and maker', async () => {
    await undoThroughWorkspaces();
    const [{ id: userId }] = await sql(
      `INSERT INTO users (email, segment, password_hash, quota_bytes) VALUES ('old@example.com', 'old-timer', 'x', 1000) RETURNING id`,
    );
    const [{ id: fileId }] = await sql(
      `INSERT INTO files (user_id, name, kind) VALUES ($1, 'kept.md', 'MARKDOWN') RETURNING id`,
      [userId],
    );
    const [{ id: shareId }] = await sql(
      `INSERT INTO shares (user_id, file_id, token) VALUES ($1, $2, 'kept-token-1') RETURNING id`,
      [userId, fileId],
    );
    await sql(
      `INSERT INTO api_tokens (user_id, name, prefix, secret_hash, rate_limit_per_minute, scopes)
       VALUES ($1, 'old', 'oldprefix01', 'hash', 60, '{read,write}')`,
      [userId],
    );

    const [{ id: notificationId }] = await sql(
      `INSERT INTO notifications (user_id, kind, share_id, file_name) VALUES ($1, 'visit', $2, 'kept.md') RETURNING id`,
      [userId, shareId],
    );
    await sql(`INSERT INTO notifications (user_id, kind, digest_day, data) VALUES ($1, 'daily_digest', '2026-01-02', '{}')`, [
      userId,
    ]);

    await db.dataSource.runMigrations({ transaction: 'all' });

    const [account] = await sql('SELECT kind, segment, name FROM users WHERE id = $1', [userId]);
    expect(account).toEqual({ kind: 'person', segment: 'old-timer', name: null });
    expect((await sql('SELECT created_by FROM files WHERE id = $1', [fileId]))[0].created_by).toBe(userId);
    expect((await sql('SELECT created_by, token FROM shares WHERE id = $1', [shareId]))[0]).toEqual({
      created_by: userId,
      token: 'kept-token-1',
    });
    // The token still finds its account, acting in its personal workspace as its owner.
    const tokens = new ApiTokensRepository(db.dataSource, { isAdmin: () => false } as unknown as Administrators);
    const found = await tokens.findLiveByPrefix('oldprefix01');
    expect(found).toMatchObject({ user: { id: userId, segment: 'old-timer' }, actor: { id: userId }, role: 'OWNER' });
    expect((await sql('SELECT count(*)::int AS n FROM workspace_members'))[0].n).toBe(0);
    // Notifications of the release before stay the account's own, and its digest of a day stays unique.
    expect((await sql('SELECT recipient_id FROM notifications WHERE id = $1', [notificationId]))[0]).toEqual({
      recipient_id: null,
    });
    await expect(
      sql(`INSERT INTO notifications (user_id, kind, digest_day, data) VALUES ($1, 'daily_digest', '2026-01-02', '{}')`, [
        userId,
      ]),
    ).rejects.toThrow();
  });

  it('keeps segments unique among accounts and workspaces, and a workspace without an e-mail address', async () => {
    await sql(`INSERT INTO users (kind, name, segment, quota_bytes) VALUES ('workspace', 'Team', 'team-space', 1000)`);
    await expect(
      sql(`INSERT INTO users (kind, name, segment, quota_bytes) VALUES ('workspace', 'Other', 'TEAM-space', 1000)`),
    ).rejects.toThrow();
    await expect(
      sql(`INSERT INTO users (email, segment, password_hash, quota_bytes) VALUES ('x@example.com', 'team-space', 'x', 1)`),
    ).rejects.toThrow();
    await expect(sql(`INSERT INTO users (segment, quota_bytes) VALUES ('nobody', 1)`)).rejects.toThrow();
  });
});
