import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Administrators } from '../auth/accounts/administrators.js';
import { AuditLog } from '../audit/audit-log.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AppError } from '../common/app-error.js';
import type { ChangeFeed } from '../database/change-feed.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { AccountStatusService } from './account-status.service.js';
import { AdminUsersRepository } from './admin-users.repository.js';

/** Records what would be announced; NOTIFY itself is PostgreSQL's. */
class RecordingFeed {
  readonly published: string[] = [];
  async publish(topic: string, key: string): Promise<void> {
    this.published.push(`${topic}:${key}`);
  }
}

describe(AccountStatusService.name, () => {
  let database: TestDatabase;
  let feed: RecordingFeed;
  let sut: AccountStatusService;
  const sessionsOf = async (userId: string) =>
    (await database.dataSource.query(`SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [userId]))[0].n as number;
  /** Resolves once some statement waits for a lock another transaction holds. */
  const blockedOnALock = async () => {
    for (;;) {
      const [row] = await database.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE NOT l.granted AND d.datname = current_database()`,
      );
      if (row.n > 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const makeAdmin = (userId: string) => database.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [userId]);

  beforeAll(async () => {
    database = await createTestDatabase();
    feed = new RecordingFeed();
    sut = new AccountStatusService(
      database.dataSource,
      new AdminUsersRepository(database.dataSource),
      new AuditLog(new AuditRepository(database.dataSource)),
      feed as unknown as ChangeFeed,
      new Administrators(['listed@example.org'], false),
    );
  });
  afterAll(() => database?.drop());

  it('ends the sessions, records the administrator, announces the account, and does all of it only once', async () => {
    const admin = await createTestUser(database.dataSource);
    const user = await createTestUser(database.dataSource);
    await database.dataSource.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('h1-' || $1::text, $1::uuid, now() + interval '1 day'), ('h2-' || $1::text, $1::uuid, now() + interval '1 day')`,
      [user.id],
    );
    expect(await sut.setDisabled(admin.id, user.id, true, { details: { reason: 'report' } })).toBe(true);
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await sut.setDisabled(admin.id, user.id, true)).toBe(false);
    const events = await new AuditRepository(database.dataSource).page(user.id, 10);
    expect(events.map((event) => [event.action, event.actorId, event.details])).toEqual([
      ['admin.user_disabled', admin.id, { reason: 'report', endedSessions: 2 }],
    ]);
    expect(feed.published).toEqual([`accounts:${user.id}`]);
    expect(await sut.setDisabled(admin.id, user.id, false)).toBe(true);
  });

  it("commits and rolls back with the caller's transaction", async () => {
    const admin = await createTestUser(database.dataSource);
    const user = await createTestUser(database.dataSource);
    await expect(
      database.dataSource.transaction(async (manager) => {
        await sut.setDisabled(admin.id, user.id, true, { manager });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    const [row] = await database.dataSource.query(`SELECT disabled_at FROM users WHERE id = $1`, [user.id]);
    expect(row.disabled_at).toBeNull();
  });

  it('refuses the administrator themself, an unknown account, and the last active administrator', async () => {
    const first = await createTestUser(database.dataSource);
    const second = await createTestUser(database.dataSource);
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: AppError) => error.code,
      );
    expect(await refusal(sut.setDisabled(first.id, first.id, true))).toBe('CONFLICT');
    expect(await refusal(sut.setDisabled(first.id, '00000000-0000-4000-8000-000000000000', true))).toBe('NOT_FOUND');

    // Leave exactly these two as the active administrators.
    await database.dataSource.query(`UPDATE users SET role = 'user'`);
    await makeAdmin(first.id);
    await makeAdmin(second.id);
    // Each disables the other: the second one's check runs while the first one's change is not yet
    // committed, and must wait for it rather than count the other as still active.
    let second$: Promise<string | null> | undefined;
    await database.dataSource.transaction(async (manager) => {
      await sut.setDisabled(first.id, second.id, true, { manager });
      second$ = refusal(sut.setDisabled(second.id, first.id, true));
      await Promise.race([second$, blockedOnALock()]);
    });
    expect(await second$).toBe('CONFLICT');
    const [active] = await database.dataSource.query(
      `SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL AND id = ANY($1)`,
      [[first.id, second.id]],
    );
    expect(active.n).toBe(1);
  });

  it('counts an address ADMIN_EMAILS names as an administrator only once it is proven', async () => {
    const founder = await createTestUser(database.dataSource);
    const listed = await createTestUser(database.dataSource);
    await database.dataSource.query(`UPDATE users SET email = 'Listed@example.org' WHERE id = $1`, [listed.id]);
    await database.dataSource.query(`UPDATE users SET role = 'user'`);
    await makeAdmin(founder.id);

    const refused = await sut.setDisabled(listed.id, founder.id, true).catch((error: AppError) => error.code);
    expect(refused).toBe('CONFLICT');
    await database.dataSource.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [listed.id]);
    expect(await sut.setDisabled(listed.id, founder.id, true)).toBe(true);
  });

  it('with e-mail configured, counts the first account as an administrator only once its address is proven', async () => {
    const withEmail = new AccountStatusService(
      database.dataSource,
      new AdminUsersRepository(database.dataSource),
      new AuditLog(new AuditRepository(database.dataSource)),
      feed as unknown as ChangeFeed,
      new Administrators([], true),
    );
    const proven = await createTestUser(database.dataSource, { emailVerified: true });
    const unproven = await createTestUser(database.dataSource);
    await database.dataSource.query(`UPDATE users SET role = 'user'`);
    await makeAdmin(proven.id);
    await makeAdmin(unproven.id);

    const refused = await withEmail.setDisabled(unproven.id, proven.id, true).catch((error: AppError) => error.code);
    expect(refused).toBe('CONFLICT');
    // Not an administrator itself, so nothing stops its disabling.
    expect(await withEmail.setDisabled(proven.id, unproven.id, true)).toBe(true);
  });
});
