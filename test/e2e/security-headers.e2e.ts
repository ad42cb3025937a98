import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { share, sql, upload } from '../support/browser.js';

describe('security headers and origins', () => {
  let app: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  it('the console carries a CSP that allows only its own scripts and forbids framing', async () => {
    const response = await fetch(`${app.baseUrl}/files`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/);
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    '/api/docs',
    '/api/openapi.json',
    '/healthz',
    '/api/v1/me',
    '/v1/files/00000000-0000-0000-0000-000000000000',
    '/api/nothing-here',
  ])('%s answers with nosniff and no framing', async (path) => {
    const response = await fetch(`${app.baseUrl}${path}`);
    await response.arrayBuffer();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['null', 403],
    ['https://evil.example', 403],
    ['http://127.0.0.1:1', 403],
  ])('a GET with the session cookie and Origin %s is refused', async (origin, status) => {
    for (const path of ['/api/auth/session', '/api/tokens', '/api/webhooks']) {
      const response = await fetch(`${app.baseUrl}${path}`, { headers: { cookie: alice.cookie, origin } });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
    }
  });

  it('a GET from our own origin, or without Origin, acts with the session', async () => {
    expect(
      (await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie: alice.cookie, origin: app.baseUrl } })).status,
    ).toBe(200);
    expect((await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie: alice.cookie } })).status).toBe(200);
  });

  it('a forged Host header does not make a foreign Origin our own', async () => {
    const created = await fetch(`${app.baseUrl}/api/tokens`, {
      method: 'POST',
      headers: { cookie: alice.cookie, host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged' }),
    });
    expect(created.status).toBe(403);
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email: alice.email, password: alice.password }),
    });
    expect(login.status).toBe(403);
    const tokens = await sql<{ n: number }>(app, `SELECT count(*)::int AS n FROM api_tokens WHERE name = 'forged'`);
    expect(tokens[0]!.n).toBe(0);
  });

  it('a viewer form posted with a forged Host and a foreign Origin is refused and consumes nothing', async () => {
    const doc = await upload(app, alice, 'once.md', '# once\n');
    const { share: created, url } = await share(alice, doc.fileId, { oneTime: true });
    const response = await fetch(`${app.baseUrl}${new URL(url).pathname}`, {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=reveal',
    });
    expect(response.status).toBe(403);
    const rows = await sql<{ visit_count: number }>(app, 'SELECT visit_count FROM shares WHERE id = $1', [created.id]);
    expect(rows[0]!.visit_count).toBe(0);
  });
});

describe('housekeeping in the worker', () => {
  let app: RunningApp;

  afterAll(async () => app?.cleanup());

  it('deletes expired sessions, long-idle rate-limit buckets and expired frame tickets, and keeps live ones', async () => {
    const first = await startApp({ env: { REDIS_URL: '' } });
    const user = await createUser(first.baseUrl);
    const other = await createUser(first.baseUrl);
    await sql(first, `UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [user.userId]);
    await sql(
      first,
      `INSERT INTO rate_buckets (key, tokens, last_allowed, updated_at) VALUES
         ('login:client:198.51.100.7', 3, true, now() - interval '2 days'),
         ('login:client:198.51.100.8', 3, true, now() - interval '5 minutes')`,
    );
    await sql(
      first,
      `INSERT INTO frame_tickets (id, expires_at) VALUES ('old-ticket', now() - interval '1 minute'), ('live-ticket', now() + interval '1 minute')`,
    );
    const env = { ...first.env };
    await first.stop();
    // The sweep runs when a worker starts, then every ten minutes.
    app = await startApp({ dataDir: first.dataDir, env });
    let left: Array<{ key: string }> = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      left = await sql<{ key: string }>(
        app,
        `SELECT key FROM rate_buckets WHERE key LIKE 'login:client:198.51.100.%' ORDER BY key`,
      );
      if (left.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(left.map((row) => row.key)).toEqual(['login:client:198.51.100.8']);
    const tickets = await sql<{ id: string }>(app, `SELECT id FROM frame_tickets WHERE id LIKE '%-ticket' ORDER BY id`);
    expect(tickets.map((row) => row.id)).toEqual(['live-ticket']);
    const sessions = await sql<{ user_id: string }>(app, 'SELECT user_id FROM sessions WHERE user_id = ANY($1::uuid[])', [
      [user.userId, other.userId],
    ]);
    expect(sessions.map((row) => row.user_id)).toEqual([other.userId]);
    expect((await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie: other.cookie } })).status).toBe(200);
  });
});
