import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { testVisitLogEntry } from './visit-log-entry.fixture.js';
import { VisitLogRepository, type VisitLogEntry } from './visit-log.repository.js';

describe(VisitLogRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: VisitLogRepository;
  let shareId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    sut = new VisitLogRepository(db);
    ({ shareId } = await createTestShare(db, (await createTestUser(db)).id));
  });
  afterAll(async () => {
    await database?.drop();
  });

  const entry = (overrides: Partial<VisitLogEntry> = {}) => testVisitLogEntry(shareId, overrides);

  const row = async (id: string) =>
    (
      (await db.query('SELECT duration_ms, scroll_depth, completed FROM share_visit_log WHERE id = $1', [id])) as Array<{
        duration_ms: number | null;
        scroll_depth: number | null;
        completed: boolean;
      }>
    )[0];

  it('writes a batch, and drops the rows of a share that is gone instead of failing', async () => {
    const kept = entry();
    await sut.insertAll([kept, entry({ shareId: randomUUID() })]);
    expect(await row(kept.id)).toEqual({ duration_ms: null, scroll_depth: null, completed: false });
  });

  it('stores every text exactly as the visit sent it: quotes, backslashes, braces, commas, NULL spelled out', async () => {
    const texts = ['a "quoted" \\ back\\slash', '{x,y}', 'NULL', '', ' spaced ', "it's ünïcödé\ttab", '\\"'];
    const visits = texts.map((text, i) =>
      entry({ referer: text, userAgent: texts[(i + 1) % texts.length], loginEmail: i % 2 ? null : text }),
    );
    await sut.insertAll(visits);
    const stored = (await db.query(
      'SELECT id, referer, user_agent, login_email FROM share_visit_log WHERE id = ANY($1::uuid[])',
      [visits.map((visit) => visit.id)],
    )) as Array<{ id: string; referer: string | null; user_agent: string | null; login_email: string | null }>;
    expect(stored).toHaveLength(visits.length);
    for (const visit of visits) {
      const found = stored.find((row) => row.id === visit.id)!;
      expect([found.referer, found.user_agent, found.login_email]).toEqual([visit.referer, visit.userAgent, visit.loginEmail]);
    }
  });

  it('only raises engagement, bounded by the time since the visit began', async () => {
    const visit = entry({ at: new Date(Date.now() - 60_000) });
    await sut.insertAll([visit]);
    expect(await sut.engage(visit.id, shareId, { durationMs: 5_000, scrollDepth: 0.5, completed: false })).toBe(true);
    await sut.engage(visit.id, shareId, { durationMs: 1_000, scrollDepth: 0.2, completed: true });
    expect(await row(visit.id)).toEqual({ duration_ms: 5_000, scroll_depth: 0.5, completed: true });
    await sut.engage(visit.id, shareId, { durationMs: 10_000_000, scrollDepth: 1, completed: false });
    const raised = await row(visit.id);
    expect(raised!.duration_ms).toBeLessThan(70_000);
    expect(raised!.completed).toBe(true);
  });

  it('leaves unmeasured visits and other shares alone', async () => {
    const unmeasured = entry({ measured: false });
    const measured = entry();
    await sut.insertAll([unmeasured, measured]);
    expect(await sut.engage(unmeasured.id, shareId, { durationMs: 1, scrollDepth: 1, completed: true })).toBe(false);
    expect(await sut.engage(measured.id, randomUUID(), { durationMs: 1, scrollDepth: 1, completed: true })).toBe(false);
    expect(await row(unmeasured.id)).toEqual({ duration_ms: null, scroll_depth: null, completed: false });
  });

  it('purges visits past the retention period and keeps the hourly counts', async () => {
    const old = entry({ at: new Date(Date.now() - 400 * 86_400_000) });
    const recent = entry({ at: new Date(Date.now() - 300 * 86_400_000) });
    await sut.insertAll([old, recent]);
    await db.query(`INSERT INTO share_visit_hours (share_id, hour, visits) VALUES ($1, now() - interval '400 days', 3)`, [
      shareId,
    ]);
    expect(await sut.deleteOlderThan(365, 1)).toBe(1);
    expect(await row(old.id)).toBeUndefined();
    expect(await row(recent.id)).toBeDefined();
    const [hours] = (await db.query('SELECT sum(visits)::int AS visits FROM share_visit_hours WHERE share_id = $1', [
      shareId,
    ])) as Array<{
      visits: number;
    }>;
    expect(hours!.visits).toBe(3);
  });

  describe('with notifications', () => {
    let ownerId: string;
    const newShare = async (notify: string): Promise<string> => {
      const [file] = (await db.query(`INSERT INTO files (user_id, name, kind) VALUES ($1, $2, 'MARKDOWN') RETURNING id`, [
        ownerId,
        `${notify}-${randomUUID()}.md`,
      ])) as Array<{ id: string }>;
      const [share] = (await db.query(
        `INSERT INTO shares (user_id, file_id, token, notify) VALUES ($1, $2, $3, $4) RETURNING id`,
        [ownerId, file!.id, randomUUID().replace(/-/g, ''), notify],
      )) as Array<{ id: string }>;
      return share!.id;
    };
    const notificationsOf = async (id: string) =>
      (await db.query('SELECT kind, data FROM notifications WHERE share_id = $1 ORDER BY seq', [id])) as Array<{
        kind: string;
        data: { visitId: string; visitCount: number; ipPrefix: string };
      }>;

    beforeAll(async () => {
      ownerId = (await createTestUser(db)).id;
    });

    it('first: only the earliest visit by a person of the batch, once ever; automated visits never', async () => {
      const id = await newShare('first');
      const at = Date.now();
      const bot = entry({ shareId: id, notify: 'first', automated: true, at: new Date(at - 3_000) });
      const earliest = entry({ shareId: id, notify: 'first', at: new Date(at - 2_000), visitCount: 2 });
      const later = entry({ shareId: id, notify: 'first', at: new Date(at - 1_000), visitCount: 3 });
      const written = await sut.insertAll([later, bot, earliest]);
      expect(written).toHaveLength(1);
      expect((await notificationsOf(id)).map((n) => [n.kind, n.data.visitId, n.data.visitCount])).toEqual([
        ['first_visit', earliest.id, 2],
      ]);
      // Parallel batches later (as on other replicas) find first_visit_notified_at set.
      const again = await Promise.all([1, 2, 3].map(() => sut.insertAll([entry({ shareId: id, notify: 'first' })])));
      expect(again.flat()).toEqual([]);
      expect(await notificationsOf(id)).toHaveLength(1);
    });

    it('every: one per visit by a person; off: none, in the same batch', async () => {
      const every = await newShare('every');
      const off = await newShare('off');
      const written = await sut.insertAll([
        entry({ shareId: every, notify: 'every', visitCount: 1 }),
        entry({ shareId: every, notify: 'every', visitCount: 2, automated: true }),
        entry({ shareId: every, notify: 'every', visitCount: 3 }),
        entry({ shareId: off, notify: 'off' }),
      ]);
      expect(written).toHaveLength(2);
      expect((await notificationsOf(every)).map((n) => [n.kind, n.data.visitCount, n.data.ipPrefix])).toEqual([
        ['visit', 1, '203.0.113.0/24'],
        ['visit', 3, '203.0.113.0/24'],
      ]);
      expect(await notificationsOf(off)).toEqual([]);
    });
  });
});
