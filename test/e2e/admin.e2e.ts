import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import {
  allocateRedisDb,
  createMachineDatabase,
  createUser,
  sessionCookieOf,
  startApp,
  type RunningApp,
  type TestUser,
} from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, uploadRaw } from '../support/browser.js';
import { drainQueues } from '../support/queues.js';

const PASSWORD = 'correct horse battery';
const DOCUMENT = '# Field notes\n\nOnly for readers of the link.';

function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('administrators', () => {
  let app: RunningApp;
  /** The instance's first account: its administrator. */
  let root: TestUser;
  /** Named in ADMIN_EMAILS (in another case than there). */
  let boss: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp({ env: { ADMIN_EMAILS: 'ops@example.org, Boss@Example.com' } });
    root = await createUser(app.baseUrl);
    boss = await createUser(app.baseUrl, { email: `BOSS@example.COM` });
    // ADMIN_EMAILS counts only for a proven address; this instance has neither e-mail nor single
    // sign-on to prove one, so the proof is written as either of them would write it.
    await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [boss.userId]);
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  const admin = () => root.console;
  const status = async (path: string, init: RequestInit = {}) => (await fetch(`${app.baseUrl}${path}`, init)).status;
  const signIn = (email: string) =>
    fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
  const disable = (id: string, disabled: boolean, by: SharedownClient = admin()) =>
    by.PATCH('/api/admin/users/{id}', { params: { path: { id } }, body: { disabled } });

  it('makes the first account and the ADMIN_EMAILS addresses administrators, and says so on the session', async () => {
    const sessionOf = async (user: TestUser) => (await unwrap(user.console.GET('/api/auth/session'))).user.isAdmin;
    expect(await sessionOf(root)).toBe(true);
    expect(await sessionOf(boss)).toBe(true);
    expect(await sessionOf(alice)).toBe(false);
    const roles = await sql<{ email: string; role: string }>(app, 'SELECT email, role FROM users ORDER BY created_at');
    // Only the first account holds the role in its row; ADMIN_EMAILS is read from the configuration.
    expect(roles.map((row) => row.role)).toEqual(['admin', 'user', 'user']);
    const listed = await unwrap(admin().GET('/api/admin/users/{id}', { params: { path: { id: boss.userId } } }));
    expect(listed).toMatchObject({ email: 'BOSS@example.COM', isAdmin: true, disabled: false, disabledAt: null });
  });

  it('grants nothing to an ADMIN_EMAILS address nobody proved, which without e-mail is every registration', async () => {
    const ops = await createUser(app.baseUrl, { email: 'Ops@Example.org' });
    expect((await unwrap(ops.console.GET('/api/auth/session'))).user).toMatchObject({ emailVerified: false, isAdmin: false });
    for (const path of ['/api/admin/users', '/api/admin/settings', '/api/admin/stats']) {
      expect(await status(path, { headers: { cookie: ops.cookie } })).toBe(403);
    }
    const listed = await unwrap(admin().GET('/api/admin/users/{id}', { params: { path: { id: ops.userId } } }));
    expect(listed).toMatchObject({ email: 'Ops@Example.org', isAdmin: false });
    // Signing in again changes nothing: a password proves no mailbox.
    const again = await signIn(ops.email);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { user: { isAdmin: boolean } }).user.isAdmin).toBe(false);
  });

  it('answers non-administrators 403, bearer tokens 403 and nobody 401 on every admin route', async () => {
    const routes = [
      '/api/admin/users',
      `/api/admin/users/${alice.userId}`,
      '/api/admin/settings',
      '/api/admin/invites',
      '/api/admin/stats',
      '/api/admin/audit',
      '/api/admin/audit.ndjson',
    ];
    for (const path of routes) {
      expect(await status(path)).toBe(401);
      expect(await status(path, { headers: { cookie: alice.cookie } })).toBe(403);
      expect(await status(path, { headers: { authorization: `Bearer ${root.token}` } })).toBe(403);
      expect(await status(path, { headers: { cookie: root.cookie } })).toBe(200);
    }
    const refused = await alice.console.PATCH('/api/admin/users/{id}', {
      params: { path: { id: alice.userId } },
      body: { quotaBytes: 10 ** 12 },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await alice.console.DELETE('/api/admin/users/{id}', { params: { path: { id: root.userId } } })).response.status).toBe(
      403,
    );
    expect((await alice.console.PATCH('/api/admin/settings', { body: { registration: 'closed' } })).response.status).toBe(403);
  });

  it('disabling ends the sessions, refuses the token and sign-in, and turns the links into a 410 that counts nothing; enabling gives all back but the sessions', async () => {
    const bob = await createUser(app.baseUrl);
    const secondSession = sessionCookieOf(await signIn(bob.email));
    const doc = await upload(app, bob, 'notes.md', DOCUMENT);
    const link = pathOf((await share(bob, doc.fileId)).url);
    const visitor = new HttpVisitor(app.baseUrl);
    expect(isDocument(await visitor.get(link))).toBe(true);

    const disabled = await unwrap(disable(bob.userId, true));
    expect(disabled).toMatchObject({ id: bob.userId, disabled: true, disabledAt: expect.any(String) });

    for (const cookie of [bob.cookie, secondSession])
      expect(await status('/api/auth/session', { headers: { cookie } })).toBe(401);
    const withToken = await bob.api.GET('/api/v1/me');
    expect(withToken.response.status).toBe(401);
    expect(withToken.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    const refusedSignIn = await signIn(bob.email);
    expect(refusedSignIn.status).toBe(403);
    expect(await refusedSignIn.json()).toEqual({ code: 'FORBIDDEN', error: expect.stringContaining('账户已停用') });
    // The viewer's own sign-in form says so in the visitor's language.
    const viewerSignIn = await new HttpVisitor(app.baseUrl).post(
      '/s/_login',
      { email: bob.email, password: PASSWORD, next: link },
      { 'accept-language': 'fr' },
    );
    expect(viewerSignIn.status).toBe(403);
    expect(viewerSignIn.body).toContain('Compte désactivé');
    // A wrong password is still only a wrong password: the state shows only to whoever knows the password.
    expect(
      (
        await fetch(`${app.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: bob.email, password: 'not the password' }),
        })
      ).status,
    ).toBe(401);

    // The share's counter and its hourly visits, both written when a visit is admitted.
    const counted = async () =>
      (
        await sql<{ n: number }>(
          app,
          `SELECT s.visit_count + coalesce((SELECT sum(h.visits)::int FROM share_visit_hours h WHERE h.share_id = s.id), 0) AS n
           FROM shares s WHERE s.user_id = $1`,
          [bob.userId],
        )
      )[0]!.n;
    const before = await counted();
    for (const language of ['zh-CN', 'de']) {
      const gone = await new HttpVisitor(app.baseUrl).get(link, { 'accept-language': language });
      expect(gone.status).toBe(410);
      expect(gone.body).toContain(language === 'de' ? 'Konto gesperrt' : '账户已停用');
      expect(gone.body).not.toContain('Only for readers');
    }
    // Nothing counted, nothing delivered: not now, and not once the queues are empty.
    await drainQueues(app);
    expect(before).toBe(2);
    expect(await counted()).toBe(before);

    const enabled = await unwrap(disable(bob.userId, false));
    expect(enabled).toMatchObject({ disabled: false, disabledAt: null });
    expect((await bob.api.GET('/api/v1/me')).response.status).toBe(200);
    expect(isDocument(await new HttpVisitor(app.baseUrl).get(link))).toBe(true);
    for (const cookie of [bob.cookie, secondSession])
      expect(await status('/api/auth/session', { headers: { cookie } })).toBe(401);
    expect((await signIn(bob.email)).status).toBe(200);
  });

  it('refuses an administrator disabling or deleting themself, and never leaves the instance without an active administrator', async () => {
    const self = await disable(root.userId, true);
    expect(self.response.status).toBe(409);
    expect(self.error).toMatchObject({ code: 'CONFLICT' });
    expect((await admin().DELETE('/api/admin/users/{id}', { params: { path: { id: root.userId } } })).response.status).toBe(409);

    // Two administrators disabling each other at once: one wins, the other is refused.
    const sam = await createUser(app.baseUrl);
    await sql(app, "UPDATE users SET role = 'admin' WHERE id = $1", [sam.userId]);
    const eve = await createUser(app.baseUrl);
    await sql(app, "UPDATE users SET role = 'admin' WHERE id = $1", [eve.userId]);
    // Leave sam and eve the only active administrators for this race.
    await sql(app, 'UPDATE users SET disabled_at = now() WHERE id = $1', [root.userId]);
    await sql(app, "UPDATE users SET disabled_at = now() WHERE lower(email) = 'boss@example.com'");
    try {
      const [bySam, byEve] = await Promise.all([disable(eve.userId, true, sam.console), disable(sam.userId, true, eve.console)]);
      const statuses = [bySam.response.status, byEve.response.status].sort();
      expect(statuses[0]).toBe(200);
      // The loser was either stopped at the door (its session ended) or by the last-administrator rule.
      expect([401, 409]).toContain(statuses[1]);
      const active = await sql<{ n: number }>(
        app,
        "SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL AND id = ANY($1)",
        [[sam.userId, eve.userId]],
      );
      expect(active[0]!.n).toBe(1);
    } finally {
      await sql(app, "UPDATE users SET disabled_at = NULL WHERE id = $1 OR lower(email) = 'boss@example.com'", [root.userId]);
    }
  });

  it('changes the quota, enforced from the next upload, lowering below the usage included; validates it', async () => {
    const carol = await createUser(app.baseUrl);
    await upload(app, carol, 'first.txt', 'x'.repeat(100));
    const lowered = await unwrap(
      admin().PATCH('/api/admin/users/{id}', { params: { path: { id: carol.userId } }, body: { quotaBytes: 50 } }),
    );
    expect(lowered).toMatchObject({ quotaBytes: 50, usedBytes: 100, fileCount: 1 });
    const refused = await uploadRaw(app.baseUrl, carol, 'second.txt', 'tiny');
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'OVER_QUOTA' });
    await unwrap(
      admin().PATCH('/api/admin/users/{id}', { params: { path: { id: carol.userId } }, body: { quotaBytes: 10_000 } }),
    );
    expect((await uploadRaw(app.baseUrl, carol, 'second.txt', 'tiny')).ok).toBe(true);

    for (const quotaBytes of [-1, 1.5, 2 ** 41, '100'] as unknown as number[]) {
      const bad = await admin().PATCH('/api/admin/users/{id}', { params: { path: { id: carol.userId } }, body: { quotaBytes } });
      expect(bad.response.status).toBe(400);
      expect(bad.error).toMatchObject({ code: 'VALIDATION', field: 'quotaBytes' });
    }
    const unknown = await admin().PATCH('/api/admin/users/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
      body: { quotaBytes: 1 },
    });
    expect(unknown.response.status).toBe(404);
  });

  it('deletes an account and every row it owns in one go', async () => {
    const dave = await createUser(app.baseUrl);
    const doc = await upload(app, dave, 'deleted.md', DOCUMENT);
    await upload(app, dave, 'deleted.md', `${DOCUMENT}\n\nv2`).catch(() => undefined);
    await unwrap(dave.console.POST('/api/console/folders', { body: { name: 'Projects' } }));
    const link = pathOf((await share(dave, doc.fileId)).url);
    expect(isDocument(await new HttpVisitor(app.baseUrl).get(link))).toBe(true);
    await unwrap(dave.console.POST('/api/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['share_visited'] } }));
    await drainQueues(app);

    const owned = async () => {
      const [row] = await sql<Record<string, number>>(
        app,
        `SELECT
           (SELECT count(*)::int FROM users WHERE id = $1) AS users,
           (SELECT count(*)::int FROM files WHERE user_id = $1) AS files,
           (SELECT count(*)::int FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = $1) AS versions,
           (SELECT count(*)::int FROM folders WHERE user_id = $1) AS folders,
           (SELECT count(*)::int FROM shares WHERE user_id = $1) AS shares,
           (SELECT count(*)::int FROM share_visit_hours h WHERE h.share_id IN (SELECT id FROM shares WHERE user_id = $1)) AS visits,
           (SELECT count(*)::int FROM api_tokens WHERE user_id = $1) AS tokens,
           (SELECT count(*)::int FROM webhooks WHERE user_id = $1) AS webhooks,
           (SELECT count(*)::int FROM sessions WHERE user_id = $1) AS sessions,
           (SELECT count(*)::int FROM audit_events WHERE user_id = $1) AS audit`,
        [dave.userId],
      );
      return row!;
    };
    const before = await owned();
    expect(before).toMatchObject({ users: 1, files: 1, folders: 1, shares: 1, visits: 1, tokens: 1, webhooks: 1, sessions: 1 });
    expect(before.versions).toBeGreaterThanOrEqual(1);
    const usersBefore = (await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM users'))[0]!.n;

    const deleted = await admin().DELETE('/api/admin/users/{id}', { params: { path: { id: dave.userId } } });
    expect(deleted.response.status).toBe(204);
    expect(Object.values(await owned()).every((count) => count === 0)).toBe(true);
    expect((await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM users'))[0]!.n).toBe(usersBefore - 1);
    expect((await new HttpVisitor(app.baseUrl).get(link)).status).toBe(404);
    expect((await dave.api.GET('/api/v1/me')).response.status).toBe(401);
    expect(await status('/api/auth/session', { headers: { cookie: dave.cookie } })).toBe(401);

    const again = await admin().DELETE('/api/admin/users/{id}', { params: { path: { id: dave.userId } } });
    expect(again.response.status).toBe(404);
    expect((await admin().DELETE('/api/admin/users/{id}', { params: { path: { id: 'not-a-uuid' } } })).response.status).toBe(404);
    expect((await admin().GET('/api/admin/users/{id}', { params: { path: { id: dave.userId } } })).response.status).toBe(404);
  });

  it('lists and searches accounts page by page', async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await unwrap(
        admin().GET('/api/admin/users', { params: { query: { limit: '2', ...(cursor ? { cursor } : {}) } } }),
      );
      expect(page.users.length).toBeLessThanOrEqual(2);
      all.push(...page.users.map((user) => user.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const expected = await sql<{ id: string }>(app, 'SELECT id FROM users ORDER BY created_at DESC, id DESC');
    expect(all).toEqual(expected.map((row) => row.id));

    const found = await unwrap(admin().GET('/api/admin/users', { params: { query: { q: alice.segment.toUpperCase() } } }));
    expect(found.users.map((user) => user.id)).toEqual([alice.userId]);
    expect(found.users[0]).toMatchObject({
      email: alice.email,
      isAdmin: false,
      fileCount: 0,
      shareCount: 0,
      lastSignInAt: expect.any(String),
    });
    const byEmail = await unwrap(admin().GET('/api/admin/users', { params: { query: { q: 'boss@EXAMPLE' } } }));
    expect(byEmail.users.map((user) => user.id)).toEqual([boss.userId]);
    expect((await admin().GET('/api/admin/users', { params: { query: { cursor: 'garbage' } } })).response.status).toBe(400);
  });

  it('reports the instance totals', async () => {
    const stats = await unwrap(admin().GET('/api/admin/stats'));
    const [expected] = await sql<Record<string, number>>(
      app,
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM users WHERE disabled_at IS NOT NULL) AS "disabledUsers",
              (SELECT count(*)::int FROM files WHERE deleted_at IS NULL) AS files, (SELECT sum(used_bytes)::int FROM users) AS bytes,
              (SELECT count(*)::int FROM shares) AS shares,
              (SELECT coalesce(sum(visits), 0)::int FROM share_visit_hours WHERE hour >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "visitsToday"`,
    );
    expect(stats).toMatchObject(expected!);
    expect(stats.visitsToday).toBeGreaterThanOrEqual(2);
    expect(stats.activeShares).toBeGreaterThanOrEqual(1);
    expect(stats.activeShares).toBeLessThanOrEqual(stats.shares);
  });

  it("records every administrator action with the administrator as actor, pages everyone's trail and exports it as NDJSON", async () => {
    const target = await createUser(app.baseUrl);
    await unwrap(disable(target.userId, true));
    await unwrap(disable(target.userId, false));
    await unwrap(
      admin().PATCH('/api/admin/users/{id}', { params: { path: { id: target.userId } }, body: { quotaBytes: 12345 } }),
    );

    const { events } = await unwrap(admin().GET('/api/admin/audit', { params: { query: { userId: target.userId } } }));
    const adminEvents = events.filter((event) => event.action.startsWith('admin.'));
    expect(adminEvents.map((event) => event.action)).toEqual([
      'admin.quota_changed',
      'admin.user_enabled',
      'admin.user_disabled',
    ]);
    for (const event of adminEvents)
      expect(event).toMatchObject({ userId: target.userId, actorId: root.userId, targetId: target.userId });
    expect(adminEvents[0]!.details).toEqual({ from: 104857600, to: 12345 });
    // The account sees them on its own Activity page too (signed in again: the disabling ended its session).
    const cookie = sessionCookieOf(await signIn(target.email));
    const own = await unwrap(createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } }).GET('/api/audit'));
    expect(own.events.filter((event) => event.actorId === root.userId)).toHaveLength(3);

    const doomed = await createUser(app.baseUrl);
    expect((await admin().DELETE('/api/admin/users/{id}', { params: { path: { id: doomed.userId } } })).response.status).toBe(
      204,
    );
    const deletions = await unwrap(admin().GET('/api/admin/audit', { params: { query: { userId: doomed.userId } } }));
    // The account's own trail went with it; the administrator's keeps the deletion, naming it.
    expect(deletions.events).toEqual([
      expect.objectContaining({
        action: 'admin.user_deleted',
        userId: root.userId,
        actorId: root.userId,
        targetId: doomed.userId,
        details: { email: doomed.email },
      }),
    ]);

    const first = await unwrap(admin().GET('/api/admin/audit', { params: { query: { limit: '3' } } }));
    const second = await unwrap(
      admin().GET('/api/admin/audit', { params: { query: { limit: '3', cursor: first.nextCursor! } } }),
    );
    expect(new Set([...first.events, ...second.events].map((event) => event.id)).size).toBe(6);
    expect((await admin().GET('/api/admin/audit', { params: { query: { action: 'nope' as never } } })).response.status).toBe(400);

    const exported = await fetch(`${app.baseUrl}/api/admin/audit.ndjson`, { headers: { cookie: root.cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await exported.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; action: string; userId: string });
    const total = (await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM audit_events'))[0]!.n;
    expect(lines.length).toBeGreaterThanOrEqual(total - 5);
    expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
    expect(lines.some((line) => line.action === 'admin.user_disabled' && line.userId === target.userId)).toBe(true);
    const filtered = await fetch(`${app.baseUrl}/api/admin/audit.ndjson?userId=${target.userId}&action=admin.user_enabled`, {
      headers: { cookie: root.cookie },
    });
    const only = (await filtered.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(only).toEqual([
      expect.objectContaining({ action: 'admin.user_enabled', userId: target.userId, actorId: root.userId }),
    ]);
  });
});

describe('administrators on two api replicas', () => {
  let replicaA: RunningApp;
  let replicaB: RunningApp;

  beforeAll(async () => {
    const shared = {
      DATABASE_URL: await createMachineDatabase(),
      REDIS_URL: await allocateRedisDb(),
      SESSION_SECRET: 's'.repeat(40),
    };
    replicaA = await startApp({ backend: 'services', role: 'api', env: shared });
    replicaB = await startApp({ backend: 'services', role: 'api', env: shared });
  });
  afterAll(async () => {
    await replicaA?.cleanup();
    await replicaB?.cleanup();
  });

  let first: TestUser | undefined;
  /** The instance's first account (its administrator), made on first use. */
  const adminOf = async (replica: RunningApp) => (first ??= await createUser(replica.baseUrl));

  it("refuses a disabled account's token and session on the other replica right after the disabling answered", async () => {
    const root = await adminOf(replicaA);
    const frank = await createUser(replicaB.baseUrl);
    const onB = createSharedownClient({ baseUrl: replicaB.baseUrl, token: frank.token });
    // Warm replica B with the token first, as a busy client would.
    for (let i = 0; i < 5; i++) expect((await onB.GET('/api/v1/me')).response.status).toBe(200);

    await unwrap(
      root.console.PATCH('/api/admin/users/{id}', { params: { path: { id: frank.userId } }, body: { disabled: true } }),
    );
    expect((await onB.GET('/api/v1/me')).response.status).toBe(401);
    expect((await fetch(`${replicaB.baseUrl}/api/auth/session`, { headers: { cookie: frank.cookie } })).status).toBe(401);

    await unwrap(
      root.console.PATCH('/api/admin/users/{id}', { params: { path: { id: frank.userId } }, body: { disabled: false } }),
    );
    expect((await onB.GET('/api/v1/me')).response.status).toBe(200);
  });

  it('obeys a registration mode set on one replica on the other from the next request', async () => {
    const root = createSharedownClient({ baseUrl: replicaA.baseUrl, headers: { cookie: (await adminOf(replicaA)).cookie } });
    const onB = createSharedownClient({ baseUrl: replicaB.baseUrl });
    const register = (email: string) => onB.POST('/api/auth/register', { body: { email, password: PASSWORD } });
    await unwrap(root.PATCH('/api/admin/settings', { body: { registration: 'closed' } }));
    expect((await register(`closed-${Date.now()}@example.com`)).response.status).toBe(403);
    expect(await unwrap(onB.GET('/api/auth/options'))).toMatchObject({ registrationMode: 'closed', registration: false });
    await unwrap(root.PATCH('/api/admin/settings', { body: { registration: 'open' } }));
    expect((await register(`open-${Date.now()}@example.com`)).response.status).toBe(200);
  });
});
