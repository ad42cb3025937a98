import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, sql, upload } from '../support/browser.js';

/** The session-cookie routes the console uses where the REST API only takes bearer tokens. */
describe('console routes for shares, visits and validate', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let fileId: string;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    fileId = (await upload(app, alice, 'guide.md', '# Guide\n\nRead me.\n')).fileId;
  });
  afterAll(() => app?.cleanup());

  it('creates, lists, reads and revokes shares with the session cookie', async () => {
    const created = await unwrap(
      alice.console.POST('/api/console/shares', { body: { fileId, password: 'swordfish', maxVisits: 5 } }),
    );
    expect(created.url).toBe(`${app.baseUrl}/s/${alice.segment}/${created.share.token}`);
    expect(created.share).toMatchObject({ fileId, fileName: 'guide.md', hasPassword: true, maxVisits: 5, visitCount: 0 });
    expect(JSON.stringify(created.share)).not.toContain('swordfish');

    const listed = await unwrap(alice.console.GET('/api/console/shares', { params: { query: { fileId } } }));
    expect(listed.shares.map((share) => share.id)).toContain(created.share.id);
    const read = await unwrap(alice.console.GET('/api/console/shares/{id}', { params: { path: { id: created.share.id } } }));
    expect(read.token).toBe(created.share.token);

    const revoked = await unwrap(
      alice.console.DELETE('/api/console/shares/{id}', { params: { path: { id: created.share.id } } }),
    );
    expect(revoked.share.revokedAt).not.toBeNull();
    // The REST view of the same share agrees: one service behind both doors.
    const viaRest = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: created.share.id } } }));
    expect(viaRest.revokedAt).toBe(revoked.share.revokedAt);
  });

  it("answers 404 for another user's file", async () => {
    const { response, error } = await bob.console.POST('/api/console/shares', { body: { fileId } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses bearer tokens and anonymous callers', async () => {
    const withToken = await fetch(`${app.baseUrl}/api/console/shares`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(withToken.status).toBe(403);
    expect(await withToken.json()).toMatchObject({ code: 'FORBIDDEN' });
    const anonymous = await fetch(`${app.baseUrl}/api/console/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x', kind: 'TEXT' }),
    });
    expect(anonymous.status).toBe(401);
    const crossSite = await fetch(`${app.baseUrl}/api/console/shares`, {
      method: 'POST',
      headers: { cookie: alice.cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ fileId }),
    });
    expect(crossSite.status).toBe(403);
  });

  it('counts visits per hour, zero-filled, for the owner only', async () => {
    const created = await unwrap(alice.console.POST('/api/console/shares', { body: { fileId } }));
    for (let i = 0; i < 3; i++) expect((await new HttpVisitor(app.baseUrl).open(created.url)).status).toBe(200);
    // An older visit, two hours back, lands in its own bucket.
    await sql(
      app,
      `INSERT INTO share_visit_hours (share_id, hour, visits) VALUES ($1, date_trunc('hour', now()) - interval '2 hours', 4)`,
      [created.share.id],
    );

    const series = await unwrap(
      alice.console.GET('/api/console/shares/{id}/visits', { params: { path: { id: created.share.id }, query: { hours: 24 } } }),
    );
    expect(series).toMatchObject({ shareId: created.share.id, visitCount: 3, uniqueVisitCount: expect.any(Number) });
    expect(series.buckets).toHaveLength(24);
    const hours = series.buckets.map((bucket) => new Date(bucket.hour).getTime());
    expect(hours.every((hour, index) => index === 0 || hour - hours[index - 1]! === 3_600_000)).toBe(true);
    expect(series.buckets.at(-1)!.visits).toBe(3);
    expect(series.buckets.at(-3)!.visits).toBe(4);
    expect(series.buckets.reduce((sum, bucket) => sum + bucket.visits, 0)).toBe(7);

    const week = await unwrap(
      alice.console.GET('/api/console/shares/{id}/visits', { params: { path: { id: created.share.id } } }),
    );
    expect(week.buckets).toHaveLength(168);

    for (const hoursParam of ['0', '2161', 'abc', '-1']) {
      const response = await fetch(`${app.baseUrl}/api/console/shares/${created.share.id}/visits?hours=${hoursParam}`, {
        headers: { cookie: alice.cookie },
      });
      expect(response.status, hoursParam).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'VALIDATION' });
    }
    const foreign = await bob.console.GET('/api/console/shares/{id}/visits', { params: { path: { id: created.share.id } } });
    expect(foreign.response.status).toBe(404);
  });

  it('validates content for the session exactly as POST /api/v1/validate does, storing nothing', async () => {
    const body = { content: '\uFEFF# Title  \r\n\r\n```js\r\nopen\r\n', kind: 'MARKDOWN' as const };
    const before = await sql<{ n: string }>(
      app,
      'SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM file_versions) AS n',
    );
    const viaConsole = await unwrap(alice.console.POST('/api/console/validate', { body }));
    const viaRest = await unwrap(alice.api.POST('/api/v1/validate', { body }));
    expect(viaConsole).toEqual(viaRest);
    expect(viaConsole.ok).toBe(false);
    expect(viaConsole.normalized.startsWith('# Title\n\n```js\n')).toBe(true);
    const after = await sql<{ n: string }>(
      app,
      'SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM file_versions) AS n',
    );
    expect(after[0]!.n).toBe(before[0]!.n);

    const tooLong = await alice.console.POST('/api/console/validate', { body: { content: 'a'.repeat(1_048_577), kind: 'TEXT' } });
    expect(tooLong.response.status).toBe(400);
    const badKind = await alice.console.POST('/api/console/validate', { body: { content: 'a', kind: 'PDF' as never } });
    expect(badKind.response.status).toBe(400);
    expect(badKind.error).toMatchObject({ code: 'VALIDATION' });
  });
});
