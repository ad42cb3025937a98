import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient } from '@sharedown/contract';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { announceBody } from '../support/raw-http.js';

describe('API foundation', () => {
  let app: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  describe('GET /v1/me', () => {
    it('answers the user and the token under both prefixes', async () => {
      for (const prefix of ['/api/v1', '/v1']) {
        const response = await fetch(`${app.baseUrl}${prefix}/me`, { headers: { authorization: `Bearer ${alice.token}` } });
        expect(response.status).toBe(200);
        const body = await response.json();
        expect(body).toEqual({
          user: { id: alice.userId, email: alice.email, quotaBytes: 104857600, usedBytes: 0 },
          auth: { source: 'token', tokenId: alice.tokenId },
        });
      }
    });

    it.each([
      ['missing header', undefined],
      ['wrong scheme', 'Basic abc'],
      ['malformed token', 'Bearer nope'],
      ['unknown prefix', 'Bearer shd_aaaaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ])('401 UNAUTHENTICATED for %s', async (_name, header) => {
      const response = await fetch(`${app.baseUrl}/api/v1/me`, { headers: header ? { authorization: header } : {} });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    });

    it('401 for a right prefix with a wrong secret', async () => {
      const [, prefix] = alice.token.split('_');
      const forged = `shd_${prefix}_${'A'.repeat(43)}`;
      const response = await fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${forged}` } });
      expect(response.status).toBe(401);
    });
  });

  describe('API tokens', () => {
    it('have the format shd_<prefix>_<secret> with at least 128 bits of secret, shown once', async () => {
      const created = await alice.console.POST('/api/tokens', { body: { name: 'format' } });
      expect(created.response.status).toBe(200);
      const { plaintext, token } = created.data!;
      expect(plaintext).toMatch(/^shd_[a-z0-9]+_[A-Za-z0-9]+$/);
      const secret = plaintext.split('_')[2]!;
      expect(secret.length * Math.log2(62)).toBeGreaterThanOrEqual(128);
      expect(token.rateLimitPerMinute).toBe(5);
      const listed = await alice.console.GET('/api/tokens');
      expect(JSON.stringify(listed.data)).not.toContain(secret);
      expect(listed.data!.tokens.map((t) => t.id)).toContain(token.id);
    });

    it('keeps lastUsedAt and stops working once revoked', async () => {
      const { plaintext, token } = (await alice.console.POST('/api/tokens', { body: { name: 'revoke-me' } })).data!;
      const api = createSharedownClient({ baseUrl: app.baseUrl, token: plaintext });
      expect((await api.GET('/api/v1/me')).response.status).toBe(200);
      const listed = (await alice.console.GET('/api/tokens')).data!.tokens.find((t) => t.id === token.id)!;
      expect(listed.lastUsedAt).not.toBeNull();
      const revoked = await alice.console.DELETE('/api/tokens/{id}', { params: { path: { id: token.id } } });
      expect(revoked.response.status).toBe(200);
      expect(revoked.data!.token.revokedAt).not.toBeNull();
      const after = await api.GET('/api/v1/me');
      expect(after.response.status).toBe(401);
      expect(after.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('validates rateLimitPerMinute 1..600 and unknown fields', async () => {
      for (const body of [
        { name: 'x', rateLimitPerMinute: 0 },
        { name: 'x', rateLimitPerMinute: 601 },
        { name: 'x', rateLimitPerMinute: '5' },
        { name: 'x', extra: 1 },
        {},
      ]) {
        const response = await fetch(`${app.baseUrl}/api/tokens`, {
          method: 'POST',
          headers: { cookie: alice.cookie, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((await response.json()).code).toBe('VALIDATION');
      }
    });

    it('cannot be managed with a bearer token (403) or without credentials (401)', async () => {
      for (const [method, path] of [
        ['GET', '/api/tokens'],
        ['POST', '/api/tokens'],
        ['DELETE', `/api/tokens/${alice.tokenId}`],
      ] as const) {
        const withToken = await fetch(`${app.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify({ name: 'x' }) : undefined,
        });
        expect(withToken.status, `${method} ${path}`).toBe(403);
        expect((await withToken.json()).code).toBe('FORBIDDEN');
        const anonymous = await fetch(`${app.baseUrl}${path}`, { method });
        expect(anonymous.status).toBe(401);
        expect((await anonymous.json()).code).toBe('UNAUTHENTICATED');
      }
    });

    it("cannot revoke another user's token", async () => {
      const bob = await createUser(app.baseUrl);
      const response = await bob.console.DELETE('/api/tokens/{id}', { params: { path: { id: alice.tokenId } } });
      expect(response.response.status).toBe(404);
    });
  });

  describe('rate limit', () => {
    it('admits exactly the limit under 50 parallel calls, with headers', async () => {
      const { plaintext } = (await alice.console.POST('/api/tokens', { body: { name: 'ten', rateLimitPerMinute: 10 } })).data!;
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } })),
      );
      const ok = responses.filter((r) => r.status === 200);
      const limited = responses.filter((r) => r.status === 429);
      expect(ok).toHaveLength(10);
      expect(limited).toHaveLength(40);
      for (const response of responses) expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      const denied = limited[0]!;
      expect(denied.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await denied.json()).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
      const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
      expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('defaults to 5 per minute for a new token', async () => {
      const { plaintext } = (await alice.console.POST('/api/tokens', { body: { name: 'default' } })).data!;
      const statuses = [];
      for (let i = 0; i < 7; i++) {
        statuses.push((await fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    });
  });

  describe('error envelope', () => {
    it('answers unknown routes with 404 NOT_FOUND', async () => {
      for (const path of ['/api/v1/nope', '/v1/nope', '/api/nope']) {
        const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${alice.token}` } });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
      }
    });

    it('answers bad JSON with 400 VALIDATION', async () => {
      const response = await fetch(`${app.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email": ',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'VALIDATION' });
    });

    it('answers an oversized body with 413 before reading it, with no stack', async () => {
      const { status, body } = await announceBody(`${app.baseUrl}/api/auth/login`, 9 * 1024 * 1024);
      expect(status).toBe(413);
      const envelope = JSON.parse(body);
      expect(envelope.code).toBe('OVER_QUOTA');
      expect(body).not.toMatch(/at .*\.js|stack/i);
    });

    it('answers an unsupported content type with the envelope', async () => {
      const response = await fetch(`${app.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-unknown' },
        body: 'x',
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(Object.keys(await response.json()).sort()).toEqual(['code', 'error']);
    });
  });

  describe('CORS', () => {
    it('answers preflight on /v1 and /api/v1 without credentials', async () => {
      for (const path of ['/v1/me', '/api/v1/files']) {
        const response = await fetch(`${app.baseUrl}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://elsewhere.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
        expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      }
    });

    it('sets the headers on ordinary and error answers', async () => {
      const ok = await fetch(`${app.baseUrl}/v1/me`, {
        headers: { authorization: `Bearer ${alice.token}`, origin: 'https://x.example' },
      });
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
      const denied = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { origin: 'https://x.example' } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('access-control-allow-origin')).toBe('*');
      expect(denied.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    });

    it('does not open console routes cross-origin', async () => {
      const response = await fetch(`${app.baseUrl}/api/auth/session`, {
        headers: { origin: 'https://x.example', cookie: alice.cookie },
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('console session', () => {
    it('registers, logs in, reads the session and logs out', async () => {
      const email = `session${Date.now()}@example.com`;
      const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
      const registered = await anonymous.POST('/api/auth/register', { body: { email, password: 'long enough pw' } });
      expect(registered.response.status).toBe(200);
      const setCookie = registered.response.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      const login = await anonymous.POST('/api/auth/login', { body: { email, password: 'long enough pw' } });
      expect(login.response.status).toBe(200);
      const cookie = sessionCookieOf(login.response);
      const session = await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } });
      expect((await session.json()).user).toMatchObject({
        email,
        segment: expect.any(String),
        quotaBytes: 104857600,
        usedBytes: 0,
      });
      const logout = await fetch(`${app.baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie } });
      expect(logout.status).toBe(200);
      expect((await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } })).status).toBe(401);
    });

    it('refuses a duplicate e-mail and a bad password', async () => {
      const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
      const again = await anonymous.POST('/api/auth/register', {
        body: { email: alice.email.toUpperCase(), password: 'whatever123' },
      });
      expect(again.response.status).toBe(409);
      const wrong = await anonymous.POST('/api/auth/login', { body: { email: alice.email, password: 'wrong password' } });
      expect(wrong.response.status).toBe(401);
      expect(wrong.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('throttles failed logins per account', async () => {
      const victim = await createUser(app.baseUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await fetch(`${app.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: victim.email, password: `wrong-${i}-password` }),
        });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      const right = await fetch(`${app.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: victim.email, password: victim.password }),
      });
      expect(right.status).toBe(429);
    });

    it('rejects cross-site writes with the session cookie', async () => {
      for (const origin of ['https://evil.example', 'null']) {
        const response = await fetch(`${app.baseUrl}/api/tokens`, {
          method: 'POST',
          headers: { cookie: alice.cookie, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'csrf' }),
        });
        expect(response.status).toBe(403);
      }
      const sameOrigin = await fetch(`${app.baseUrl}/api/tokens`, {
        method: 'POST',
        headers: { cookie: alice.cookie, origin: app.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'same-origin' }),
      });
      expect(sameOrigin.status).toBe(200);
    });

    it('changes the owner segment and refuses a taken one', async () => {
      const bob = await createUser(app.baseUrl);
      const changed = await bob.console.PATCH('/api/console/account', { body: { segment: `bob-${Date.now() % 100000}` } });
      expect(changed.response.status).toBe(200);
      const taken = await bob.console.PATCH('/api/console/account', { body: { segment: alice.segment } });
      expect(taken.response.status).toBe(409);
      const invalid = await bob.console.PATCH('/api/console/account', { body: { segment: 'No Spaces!' } });
      expect(invalid.response.status).toBe(400);
    });
  });

  describe('health and OpenAPI', () => {
    it('reports database and queue reachability', async () => {
      const response = await fetch(`${app.baseUrl}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, database: 'up', queue: 'up' });
    });

    it('serves an OpenAPI 3.1.0 document with every route and the Swagger UI', async () => {
      const document = await (await fetch(`${app.baseUrl}/api/openapi.json`)).json();
      expect(document.openapi).toBe('3.1.0');
      expect(document.info.version).toBe('1.0.0');
      expect(document.servers[0].url).toBe('/v1');
      for (const path of [
        '/me',
        '/api/v1/me',
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/session',
        '/api/tokens',
        '/api/tokens/{id}',
      ]) {
        expect(Object.keys(document.paths)).toContain(path);
      }
      const ids = Object.values(document.paths).flatMap((item) =>
        Object.values(item as Record<string, { operationId?: string }>)
          .map((op) => op?.operationId)
          .filter(Boolean),
      );
      expect(new Set(ids).size).toBe(ids.length);
      const docs = await fetch(`${app.baseUrl}/api/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger');
    });
  });
});
