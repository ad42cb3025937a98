import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardPostgresClients } from '../../database/pg-client-guard.js';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import { testVisitLogEntry } from './visit-log-entry.fixture.js';
import { VisitLogRepository, writeVisitBatch, type VisitLogEntry } from './visit-log.repository.js';

/**
 * A TCP relay to PostgreSQL whose answers can be held back, as a frozen server holds them, and
 * released later, as the server does when it runs again.
 */
async function freezableRelay(target: URL) {
  const held: Array<{ to: Socket; chunk: Buffer }> = [];
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => (client.destroy(), upstream.destroy()));
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => (frozen ? held.push({ to: client, chunk }) : client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  const relay = {
    url: url.toString(),
    freeze: () => void (frozen = true),
    /** Sends what was held back, to the connections still open. */
    thaw(): void {
      frozen = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
  return relay;
}

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

  it('stores every column of a visit as it was, and counts the batch per share and UTC day, people and automated apart', async () => {
    const { shareId: other } = await createTestShare(db, (await createTestUser(db)).id);
    const midnight = Date.UTC(2026, 2, 14);
    const visits = [
      entry({ shareId: other, at: new Date(midnight - 1), referer: 'https://example.com/ä', browser: 'Firefox', os: 'Linux' }),
      entry({ shareId: other, at: new Date(midnight), automated: true, measured: false, device: 'other', userAgent: null }),
      entry({ shareId: other, at: new Date(midnight + 123), visitorId: 'v-ü', ipPrefix: '2001:db8::/48', device: 'mobile' }),
      entry({ shareId: other, at: new Date(midnight + 456), loginEmail: 'reader@example.com', device: 'tablet' }),
    ];
    await sut.insertAll(visits);
    const stored = (await db.query(
      `SELECT id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device, login_email, automated, measured
         FROM share_visit_log WHERE share_id = $1 ORDER BY at`,
      [other],
    )) as Array<Record<string, unknown>>;
    expect(stored).toEqual(
      visits.map((visit) => ({
        id: visit.id,
        share_id: visit.shareId,
        at: visit.at,
        visitor_id: visit.visitorId,
        ip_prefix: visit.ipPrefix,
        referer: visit.referer,
        user_agent: visit.userAgent,
        browser: visit.browser,
        os: visit.os,
        device: visit.device,
        login_email: visit.loginEmail,
        automated: visit.automated,
        measured: visit.measured,
      })),
    );
    const days = await db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, human, automated FROM share_visit_days WHERE share_id = $1 ORDER BY day`,
      [other],
    );
    expect(days).toEqual([
      { day: '2026-03-13', human: 1, automated: 0 },
      { day: '2026-03-14', human: 2, automated: 1 },
    ]);
    // A second batch adds to the same days.
    await sut.insertAll([entry({ shareId: other, at: new Date(midnight + 1000) })]);
    const [{ human }] = (await db.query(`SELECT human FROM share_visit_days WHERE share_id = $1 AND day = '2026-03-14'`, [
      other,
    ])) as Array<{ human: number }>;
    expect(human).toBe(3);
  });

  it('writes parallel batches side by side, each visit once', async () => {
    const { shareId: busy } = await createTestShare(db, (await createTestUser(db)).id);
    const batches = Array.from({ length: 24 }, () => Array.from({ length: 50 }, () => entry({ shareId: busy })));
    await Promise.all(batches.map((batch) => sut.insertAll(batch)));
    const [{ logged, human }] = (await db.query(
      `SELECT (SELECT count(*)::int FROM share_visit_log WHERE share_id = $1) AS logged,
              (SELECT sum(human)::int FROM share_visit_days WHERE share_id = $1) AS human`,
      [busy],
    )) as Array<{ logged: number; human: number }>;
    expect([logged, human]).toEqual([1200, 1200]);
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

  describe('when the database stops answering during a batch', () => {
    it('gives the batch up after the query timeout and closes its connection, so a late answer reaches nothing', async () => {
      guardPostgresClients();
      const relay = await freezableRelay(new URL((db.options as { url: string }).url));
      const client = new pg.Client({ connectionString: relay.url, query_timeout: 300 });
      try {
        await client.connect();
        relay.freeze();
        // The server runs again once the batch has asked for its ROLLBACK, while that waits.
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        Reflect.set(client, 'query', (...args: unknown[]) => {
          if (args[0] === 'ROLLBACK') setImmediate(() => relay.thaw());
          return query(...args);
        });
        const batch = [entry(), entry()];
        await expect(writeVisitBatch(client, batch)).rejects.toThrow('Query read timeout');
        // Closed when the timeout gave the COPY up, not left open for its ROLLBACK.
        const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
        expect(socket.destroyed).toBe(true);
        // The server's answers arrive now, as after a SIGCONT, if they have not yet. A connection
        // still open would hand them to the abandoned COPY, which then writes to a connection it
        // has already let go of and throws outside any promise (the process's end).
        relay.thaw();
        await new Promise((resolve) => setTimeout(resolve, 300));
        const [{ logged }] = (await db.query('SELECT count(*)::int AS logged FROM share_visit_log WHERE id = ANY($1::uuid[])', [
          batch.map((visit) => visit.id),
        ])) as Array<{ logged: number }>;
        expect(logged).toBe(0);
      } finally {
        await client.end().catch(() => undefined);
        await relay.close();
      }
    });
  });
});
