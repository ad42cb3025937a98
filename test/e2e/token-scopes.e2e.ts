import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { share, sql, upload } from '../support/browser.js';
import { followsWithin, OTHER_PROCESS_MS } from '../support/follows-within.js';

describe('API token scopes and expiry', () => {
  let app: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  async function createToken(body: Record<string, unknown>) {
    return fetch(`${app.baseUrl}/api/tokens`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });

  it('defaults to read and write, never expiring', async () => {
    const created = await unwrap(alice.console.POST('/api/tokens', { body: { name: 'default' } }));
    expect(created.token).toMatchObject({ scopes: ['read', 'write'], expiresAt: null });
  });

  it('a read-only token reads everything and changes nothing', async () => {
    const doc = await upload(app, alice, 'scoped.md', '# scoped\n');
    const existing = await share(alice, doc.fileId);
    const created = await unwrap(
      alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
    );
    expect(created.token.scopes).toEqual(['read']);
    const reader = created.plaintext;

    for (const path of ['/v1/me', '/v1/files', `/v1/files/${doc.fileId}`, '/v1/shares', `/v1/shares/${existing.share.id}`]) {
      expect((await call(reader, path)).status, path).toBe(200);
    }
    const validated = await call(reader, '/v1/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: '# hi\n', kind: 'MARKDOWN' }),
    });
    expect(validated.status).toBe(200);

    const form = new FormData();
    form.append('file', new Blob(['# refused\n'], { type: 'text/markdown' }), 'refused.md');
    const writes: Array<[string, RequestInit]> = [
      ['/v1/files', { method: 'POST', body: form }],
      [
        '/v1/shares',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fileId: doc.fileId }) },
      ],
      [`/v1/shares/${existing.share.id}`, { method: 'DELETE' }],
      [`/v1/files/${doc.fileId}`, { method: 'DELETE' }],
    ];
    for (const [path, init] of writes) {
      const response = await call(reader, path, init);
      expect(response.status, `${init.method} ${path}`).toBe(403);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
    }
    const [state] = await sql<{ files: number; shares: number; revoked: number }>(
      app,
      `SELECT (SELECT count(*) FROM files WHERE user_id = $1 AND deleted_at IS NULL)::int AS files,
              (SELECT count(*) FROM shares s JOIN files f ON f.id = s.file_id WHERE f.user_id = $1)::int AS shares,
              (SELECT count(*) FROM shares WHERE id = $2 AND revoked_at IS NOT NULL)::int AS revoked`,
      [alice.userId, existing.share.id],
    );
    expect(state).toEqual({ files: 1, shares: 1, revoked: 0 });

    const client = createSharedownClient({ baseUrl: app.baseUrl, token: reader });
    const refused = await client.POST('/api/v1/shares', { body: { fileId: doc.fileId } });
    expect(refused.response.status).toBe(403);
  });

  it('an expired token answers 401 UNAUTHENTICATED', async () => {
    const created = await unwrap(alice.console.POST('/api/tokens', { body: { name: 'brief', expiresInDays: 1 } }));
    const expiresAt = Date.parse(created.token.expiresAt!);
    expect(Math.abs(expiresAt - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect((await call(created.plaintext, '/v1/me')).status).toBe(200);
    // A statement of the test's own, as another process would write it: the api's token cache
    // follows it through the change feed, within the second the contract allows another process's change.
    await sql(app, `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [created.token.id]);
    let response!: Response;
    await followsWithin(OTHER_PROCESS_MS, async () => {
      response = await call(created.plaintext, '/v1/me');
      return response.status !== 200;
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    const listed = await unwrap(alice.console.GET('/api/tokens'));
    expect(listed.tokens.find((token) => token.id === created.token.id)).toMatchObject({
      expiresAt: expect.any(String),
      revokedAt: null,
    });
  });

  it.each([
    [{ scopes: ['write'] }],
    [{ scopes: ['admin'] }],
    [{ scopes: [] }],
    [{ scopes: ['read', 'read'] }],
    [{ scopes: 'read' }],
    [{ expiresInDays: 0 }],
    [{ expiresInDays: 3651 }],
    [{ expiresInDays: 1.5 }],
  ])('refuses %j with 400 VALIDATION and creates nothing', async (extra) => {
    const response = await createToken({ name: 'bad-scope', ...extra });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String), code: 'VALIDATION', field: Object.keys(extra)[0] });
    const rows = await sql<{ n: number }>(app, `SELECT count(*)::int AS n FROM api_tokens WHERE name = 'bad-scope'`);
    expect(rows[0]!.n).toBe(0);
  });

  it('accepts the scopes in either order and stores them once', async () => {
    const response = await createToken({ name: 'both', scopes: ['write', 'read'], expiresInDays: 3650 });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { token: { scopes: string[] } }).token.scopes).toEqual(['read', 'write']);
  });
});
