import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { dueDigestDay } from './notification-digests.js';
import { NotificationsRepository } from './notifications.repository.js';

describe(NotificationsRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: NotificationsRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    sut = new NotificationsRepository(db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** An account reading its personal workspace. */
  const own = (userId: string) => ({ workspaceId: userId, memberId: userId });

  async function shareOf(userId: string, name: string, notify: string, createdBy: string = userId): Promise<string> {
    const [file] = (await db.query(`INSERT INTO files (user_id, name, kind) VALUES ($1, $2, 'MARKDOWN') RETURNING id`, [
      userId,
      name,
    ])) as Array<{ id: string }>;
    const [share] = (await db.query(
      `INSERT INTO shares (user_id, file_id, token, notify, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [userId, file!.id, randomUUID().replace(/-/g, ''), notify, createdBy],
    )) as Array<{ id: string }>;
    return share!.id;
  }

  /** A shared workspace with these members (as EDITORs); its id. */
  async function workspaceOf(...memberIds: string[]): Promise<string> {
    const [workspace] = (await db.query(
      `INSERT INTO users (kind, name, segment, quota_bytes) VALUES ('workspace', 'Team', $1, 1000000) RETURNING id`,
      [`team-${randomUUID().slice(0, 8)}`],
    )) as Array<{ id: string }>;
    for (const memberId of memberIds) {
      await db.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'EDITOR')`, [
        workspace!.id,
        memberId,
      ]);
    }
    return workspace!.id;
  }

  const visitsOn = (shareId: string, day: string, human: number, automated: number) =>
    db.query('INSERT INTO share_visit_days (share_id, day, human, automated) VALUES ($1, $2, $3, $4)', [
      shareId,
      day,
      human,
      automated,
    ]);

  it('writes one digest per owner and day, listing the daily shares with visits by people, however often it runs', async () => {
    const owner = await createTestUser(db);
    const busy = await shareOf(owner.id, 'busy.md', 'daily');
    const quiet = await shareOf(owner.id, 'quiet.md', 'daily');
    const botsOnly = await shareOf(owner.id, 'bots.md', 'daily');
    const every = await shareOf(owner.id, 'every.md', 'every');
    await visitsOn(busy, '2026-03-02', 5, 2);
    await visitsOn(quiet, '2026-03-02', 1, 0);
    await visitsOn(botsOnly, '2026-03-02', 0, 9);
    await visitsOn(every, '2026-03-02', 7, 0);
    await visitsOn(busy, '2026-03-01', 4, 0);

    const runs = await Promise.all([sut.writeDigest('2026-03-02'), sut.writeDigest('2026-03-02'), sut.writeDigest('2026-03-02')]);
    expect(runs.flat()).toHaveLength(1);
    expect(await sut.writeDigest('2026-03-02')).toEqual([]);
    const page = await sut.page(own(owner.id), { limit: 10, before: null, unread: false });
    expect(page.map((row) => row.notification)).toEqual([
      expect.objectContaining({
        kind: 'daily_digest',
        shareId: null,
        fileName: null,
        data: {
          day: '2026-03-02',
          visits: 6,
          automatedVisits: 2,
          shares: [
            { shareId: busy, fileName: 'busy.md', visits: 5, automatedVisits: 2 },
            { shareId: quiet, fileName: 'quiet.md', visits: 1, automatedVisits: 0 },
          ],
        },
      }),
    ]);
    // A day without visits by people writes nothing.
    expect(await sut.writeDigest('2026-03-03')).toEqual([]);
  });

  it("addresses a shared workspace's digests to each link's creator while a member, the rest to the workspace", async () => {
    const [ana, ben, gone] = [
      await createTestUser(db, { emailVerified: true }),
      await createTestUser(db),
      await createTestUser(db),
    ];
    const team = await workspaceOf(ana.id, ben.id);
    const anas = await shareOf(team, 'ana.md', 'daily', ana.id);
    const bens = await shareOf(team, 'ben.md', 'daily', ben.id);
    const orphan = await shareOf(team, 'orphan.md', 'daily', gone.id);
    for (const share of [anas, bens, orphan]) await visitsOn(share, '2026-04-02', 1, 0);

    const runs = await Promise.all([sut.writeDigest('2026-04-02'), sut.writeDigest('2026-04-02')]);
    expect(runs.flat()).toHaveLength(3);
    const digestOf = async (memberId: string) =>
      (await sut.page({ workspaceId: team, memberId }, { limit: 10, before: null, unread: false })).map((row) =>
        (row.notification.data as { shares: Array<{ fileName: string }> }).shares.map((share) => share.fileName),
      );
    // Each member sees the digest of their own links and the workspace's (the link whose creator is no member).
    expect((await digestOf(ana.id)).sort()).toEqual([['ana.md'], ['orphan.md']]);
    expect((await digestOf(ben.id)).sort()).toEqual([['ben.md'], ['orphan.md']]);
    expect(await sut.unreadCount({ workspaceId: team, memberId: ben.id })).toBe(2);
    // Ben marking "all" read leaves Ana's own unread.
    await sut.markRead({ workspaceId: team, memberId: ben.id }, null);
    expect(await sut.unreadCount({ workspaceId: team, memberId: ana.id })).toBe(1);
    // The mail goes to the recipient's proven address (a workspace has none).
    const [anaDigest] = (await db.query(`SELECT id FROM notifications WHERE recipient_id = $1`, [ana.id])) as Array<{
      id: string;
    }>;
    expect(await sut.forMail(anaDigest!.id)).toMatchObject({ email: ana.email, userId: ana.id });
  });

  it("marks only the owner's own notifications read", async () => {
    const [alice, bob] = [await createTestUser(db), await createTestUser(db)];
    const share = await shareOf(alice.id, 'a.md', 'every');
    const insert = (userId: string) =>
      db.query(`INSERT INTO notifications (user_id, kind, share_id, file_name) VALUES ($1, 'visit', $2, 'a.md') RETURNING id`, [
        userId,
        share,
      ]) as Promise<Array<{ id: string }>>;
    const [[first], [second]] = [await insert(alice.id), await insert(alice.id)];
    await sut.markRead(own(bob.id), [first!.id, second!.id]);
    expect(await sut.unreadCount(own(alice.id))).toBe(2);
    await sut.markRead(own(alice.id), [first!.id]);
    expect(await sut.unreadCount(own(alice.id))).toBe(1);
    await sut.markRead(own(alice.id), null);
    expect(await sut.unreadCount(own(alice.id))).toBe(0);
  });

  it('mails only to a proven address', async () => {
    const proven = await createTestUser(db, { emailVerified: true });
    const unproven = await createTestUser(db);
    const share = await shareOf(proven.id, 'p.md', 'every');
    const [[mine]] = [
      (await db.query(
        `INSERT INTO notifications (user_id, kind, share_id, file_name) VALUES ($1, 'visit', $2, 'p.md') RETURNING id`,
        [proven.id, share],
      )) as Array<{ id: string }>,
    ];
    const [theirs] = (await db.query(
      `INSERT INTO notifications (user_id, kind, share_id, file_name) VALUES ($1, 'visit', NULL, 'x.md') RETURNING id`,
      [unproven.id],
    )) as Array<{ id: string }>;
    expect(await sut.forMail(mine!.id)).toMatchObject({ email: proven.email, notification: { kind: 'visit', fileName: 'p.md' } });
    expect(await sut.forMail(theirs!.id)).toBeNull();
  });

  it('deletes notifications past the retention period', async () => {
    const owner = await createTestUser(db);
    await db.query(
      `INSERT INTO notifications (user_id, kind, file_name, created_at) VALUES ($1, 'visit', 'old.md', now() - interval '91 days'),
                                                                               ($1, 'visit', 'new.md', now() - interval '89 days')`,
      [owner.id],
    );
    expect(await sut.deleteOlderThan(90, 1)).toBeGreaterThanOrEqual(1);
    const left = (await db.query('SELECT file_name FROM notifications WHERE user_id = $1', [owner.id])) as Array<{
      file_name: string;
    }>;
    expect(left).toEqual([{ file_name: 'new.md' }]);
  });

  it('writes the digest of the previous UTC day once it has been over for ten minutes', () => {
    expect(dueDigestDay(new Date('2026-03-03T00:05:00Z'))).toBe('2026-03-01');
    expect(dueDigestDay(new Date('2026-03-03T00:10:00Z'))).toBe('2026-03-02');
    expect(dueDigestDay(new Date('2026-03-03T23:59:00Z'))).toBe('2026-03-02');
  });
});
