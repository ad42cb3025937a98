import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { allocateRedisDb, createMachineDatabase, createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { followsWithin, OTHER_PROCESS_MS } from '../support/follows-within.js';
import { HttpVisitor, isDocument, share, sql, upload, waitForScan, type UploadedDocument } from '../support/browser.js';

/**
 * Two api replicas on one database and one Redis: what one of them keeps in memory (API token
 * identities with their account's quota and usage, the gate rows of the links it served) follows
 * a change made on the other within a second, and the replica that made the change follows it
 * from the very next request.
 */
describe('replicas follow each other’s changes', () => {
  let a: RunningApp;
  let b: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    const [databaseUrl, redisUrl] = await Promise.all([createMachineDatabase(), allocateRedisDb()]);
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SESSION_SECRET: `replica-caches-${Date.now()}-0123456789abcdef`,
    };
    // A runs every role (its worker scans the uploads); B is an api replica only.
    a = await startApp({ backend: 'services', env });
    b = await startApp({ backend: 'services', role: 'api', env });
    alice = await createUser(a.baseUrl);
    doc = await upload(a, alice, 'replicas.md', '# Replicas\n\nfollow each other');
  });
  afterAll(async () => {
    await Promise.all([a?.cleanup(), b?.cleanup()]);
  });

  const me = (app: RunningApp, token: string) => fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

  async function newToken(): Promise<{ id: string; plaintext: string }> {
    const created = await unwrap(alice.console.POST('/api/tokens', { body: { name: 'replicas', rateLimitPerMinute: 600 } }));
    return { id: created.token.id, plaintext: created.plaintext };
  }

  it('a token revoked on A answers 401 on A at once and on B within a second', async () => {
    const token = await newToken();
    // Both replicas have served it, so both hold its identity.
    for (const app of [a, b, a, b]) expect((await me(app, token.plaintext)).status).toBe(200);
    const revoked = await fetch(`${a.baseUrl}/api/tokens/${token.id}`, { method: 'DELETE', headers: { cookie: alice.cookie } });
    expect(revoked.status).toBe(200);
    const onA = await me(a, token.plaintext);
    expect(onA.status).toBe(401);
    expect(await onA.json()).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    await followsWithin(OTHER_PROCESS_MS, async () => (await me(b, token.plaintext)).status === 401);
    // And it stays refused on both.
    for (const app of [a, b]) expect((await me(app, token.plaintext)).status).toBe(401);
  });

  it('a token revoked on B answers 401 on B at once and on A within a second', async () => {
    const token = await newToken();
    for (const app of [a, b, a, b]) expect((await me(app, token.plaintext)).status).toBe(200);
    const revoked = await fetch(`${b.baseUrl}/api/tokens/${token.id}`, { method: 'DELETE', headers: { cookie: alice.cookie } });
    expect(revoked.status).toBe(200);
    expect((await me(b, token.plaintext)).status).toBe(401);
    await followsWithin(OTHER_PROCESS_MS, async () => (await me(a, token.plaintext)).status === 401);
  });

  it("an upload on A shows in B's /v1/me usage within a second", async () => {
    const token = await newToken();
    const before = (await (await me(b, token.plaintext)).json()) as { user: { usedBytes: number } };
    const content = 'x'.repeat(1234);
    await upload(a, alice, 'more.md', content, undefined, 'none');
    await followsWithin(OTHER_PROCESS_MS, async () => {
      const now = (await (await me(b, token.plaintext)).json()) as { user: { usedBytes: number } };
      return now.user.usedBytes === before.user.usedBytes + content.length;
    });
  });

  it('a share revoked on A is refused on B within a second', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    expect(isDocument(await new HttpVisitor(b.baseUrl).get(path))).toBe(true);
    const revoked = await fetch(`${a.baseUrl}/api/console/shares/${created.id}`, {
      method: 'DELETE',
      headers: { cookie: alice.cookie },
    });
    expect(revoked.status).toBe(200);
    expect((await new HttpVisitor(a.baseUrl).get(path)).status).toBe(410);
    await followsWithin(OTHER_PROCESS_MS, async () => (await new HttpVisitor(b.baseUrl).get(path)).status === 410);
  });

  it('a share edited on A (a password set) asks for it on B within a second', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    expect(isDocument(await new HttpVisitor(b.baseUrl).get(path))).toBe(true);
    await unwrap(
      alice.console.PATCH('/api/console/shares/{id}', {
        params: { path: { id: created.id } },
        body: { password: 'replica-pass-1' } as never,
      }),
    );
    expect((await new HttpVisitor(a.baseUrl).get(path)).status).toBe(401);
    await followsWithin(OTHER_PROCESS_MS, async () => (await new HttpVisitor(b.baseUrl).get(path)).status === 401);
  });

  /** A link both replicas have served (so both hold its gate row), and its path. */
  async function servedByBoth(fileId: string, input: Parameters<typeof share>[2] = {}) {
    const { share: created, url } = await share(alice, fileId, input);
    const path = new URL(url).pathname;
    for (const app of [a, b, a, b]) expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);
    return { id: created.id, path };
  }

  const statusOn = async (app: RunningApp, path: string) => (await new HttpVisitor(app.baseUrl).get(path)).status;

  it('a share both replicas serve, revoked on B, is refused on B at once and on A within a second', async () => {
    const { id, path } = await servedByBoth(doc.fileId);
    const revoked = await fetch(`${b.baseUrl}/api/console/shares/${id}`, { method: 'DELETE', headers: { cookie: alice.cookie } });
    expect(revoked.status).toBe(200);
    expect(await statusOn(b, path)).toBe(410);
    await followsWithin(OTHER_PROCESS_MS, async () => (await statusOn(a, path)) === 410);
  });

  it('a share both replicas serve expires on both at its time, with nothing written', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    // Links expire by the day; this one is moved to expire in two seconds, before either replica serves it.
    const [{ expires_at: expiresAt }] = await sql<{ expires_at: Date }>(
      a,
      `UPDATE shares SET expires_at = now() + interval '2 seconds' WHERE id = $1 RETURNING expires_at`,
      [created.id],
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const app of [a, b, a, b]) expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    expect(await statusOn(a, path)).toBe(410);
    expect(await statusOn(b, path)).toBe(410);
  });

  it('counts every visit of a link both replicas serve, and keeps its cap exact', async () => {
    const { id, path } = await servedByBoth(doc.fileId, { maxVisits: 12 });
    const statuses = await Promise.all(Array.from({ length: 24 }, (_, i) => statusOn(i % 2 ? a : b, path)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    const [row] = await sql<{ visit_count: number }>(a, 'SELECT visit_count FROM shares WHERE id = $1', [id]);
    expect(row!.visit_count).toBe(12);
  });

  it('a file both replicas serve, trashed on A, is gone on A at once and on B within a second', async () => {
    const own = await upload(a, alice, 'trashed.md', '# Trashed soon');
    const { path } = await servedByBoth(own.fileId);
    const trashed = await fetch(`${a.baseUrl}/api/v1/files/${own.fileId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(trashed.ok).toBe(true);
    expect(await statusOn(a, path)).not.toBe(200);
    await followsWithin(OTHER_PROCESS_MS, async () => (await statusOn(b, path)) !== 200);
  });

  it('a new version of a file both replicas serve is shown by both within a second of its scan', async () => {
    const own = await upload(a, alice, 'edition.md', '# First edition');
    const { path } = await servedByBoth(own.fileId);
    const form = new FormData();
    form.append('file', new Blob(['# Second edition'], { type: 'text/plain' }), 'edition.md');
    const added = await fetch(`${b.baseUrl}/api/console/files/${own.fileId}/versions`, {
      method: 'POST',
      headers: { cookie: alice.cookie },
      body: form,
    });
    expect(added.status).toBe(200);
    await waitForScan(alice, own.fileId, 'CLEAN');
    for (const app of [a, b]) {
      await followsWithin(OTHER_PROCESS_MS, async () =>
        (await new HttpVisitor(app.baseUrl).get(path)).body.includes('Second edition'),
      );
    }
  });

  it('a change written to the database by anyone (a statement of its own) reaches both within a second', async () => {
    const { id, path } = await servedByBoth(doc.fileId);
    await sql(a, 'UPDATE shares SET revoked_at = now() WHERE id = $1', [id]);
    for (const app of [a, b]) await followsWithin(OTHER_PROCESS_MS, async () => (await statusOn(app, path)) === 410);
  });
});
