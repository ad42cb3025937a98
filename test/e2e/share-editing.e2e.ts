import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, type UploadedDocument } from '../support/browser.js';

describe('changing a live share without changing its link', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    bob = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'edited.md', '# Edited\n\nbody text');
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  type Patch = NonNullable<Parameters<TestUser['console']['PATCH']>[1]>['body'];
  const edit = (user: TestUser, id: string, body: Patch) =>
    user.console.PATCH('/api/console/shares/{id}', { params: { path: { id } }, body: body as never });

  it('sets, changes and removes a password; the next visit follows at once', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);
    const locked = await unwrap(edit(alice, created.id, { password: 'sesame-1' }));
    expect(locked).toMatchObject({ id: created.id, token: created.token, hasPassword: true, visitCount: 1 });
    expect((await new HttpVisitor(app.baseUrl).get(path)).status).toBe(401);
    await unwrap(edit(alice, created.id, { password: 'sesame-2' }));
    const visitor = new HttpVisitor(app.baseUrl);
    expect((await visitor.post(path, { action: 'password', password: 'sesame-1' })).status).toBe(401);
    expect([200, 303]).toContain((await visitor.post(path, { action: 'password', password: 'sesame-2' })).status);
    expect((await unwrap(edit(alice, created.id, { password: null }))).hasPassword).toBe(false);
    expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);
  });

  it('consumes a link whose cap is lowered to its count, and opens it again when raised', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    for (let i = 0; i < 3; i++) expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);
    const lowered = await unwrap(edit(alice, created.id, { maxVisits: 2 }));
    expect(lowered).toMatchObject({ maxVisits: 2, visitCount: 3 });
    expect(lowered.consumedAt).not.toBeNull();
    expect((await new HttpVisitor(app.baseUrl).get(path)).status).toBe(410);
    const raised = await unwrap(edit(alice, created.id, { maxVisits: 5, expiresInDays: 2 }));
    expect(raised).toMatchObject({ maxVisits: 5, visitCount: 3, consumedAt: null });
    expect(Date.parse(raised.expiresAt!)).toBeGreaterThan(Date.now() + 86_400_000);
    const results = await Promise.all(Array.from({ length: 12 }, () => new HttpVisitor(app.baseUrl).get(path)));
    expect(results.filter(isDocument)).toHaveLength(2);
    expect(results.filter((visit) => visit.status === 410)).toHaveLength(10);
  });

  it('changes login, allowlist, one session and page protections, and records every change', async () => {
    const { share: created } = await share(alice, doc.fileId);
    const changed = await unwrap(
      edit(alice, created.id, {
        emailAllowlist: ['Reader@Example.com'],
        oneSession: true,
        watermarkEnabled: true,
        watermarkText: 'confidential',
        copyProtectionEnabled: true,
        burnAfterReadEnabled: true,
        perVisitorMaxVisits: 3,
      }),
    );
    expect(changed).toMatchObject({
      requireLogin: true,
      watermarkEnabled: true,
      watermarkText: 'confidential',
      copyProtectionEnabled: true,
      burnAfterReadEnabled: true,
      perVisitorMaxVisits: 3,
    });
    const policies = await unwrap(
      alice.console.GET('/api/console/shares/{id}/policies', { params: { path: { id: created.id } } }),
    );
    expect(policies).toEqual({ oneSession: true, emailAllowlist: ['reader@example.com'] });
    await unwrap(edit(alice, created.id, { expiresInDays: null, watermarkText: null, password: 'sesame-9' }));
    const records = await sql<{ changes: Record<string, unknown> }>(
      app,
      'SELECT changes FROM share_policy_changes WHERE share_id = $1 ORDER BY id',
      [created.id],
    );
    expect(records).toHaveLength(2);
    expect(records[1]!.changes).toEqual({ expiresInDays: null, watermarkText: null, password: 'set' });
  });

  it('refuses what creation refuses, foreign and revoked shares, and the link fields', async () => {
    const { share: created } = await share(alice, doc.fileId);
    for (const body of [
      { maxVisits: 0 },
      { password: 'abc' },
      { expiresInDays: 9999 },
      { slug: 'new-slug' },
      { oneTime: true },
      {},
    ]) {
      const refused = await edit(alice, created.id, body as Patch);
      expect(refused.response.status, JSON.stringify(body)).toBe(400);
      expect(refused.error).toMatchObject({ code: 'VALIDATION' });
    }
    expect((await edit(bob, created.id, { maxVisits: 3 })).response.status).toBe(404);
    const token = await fetch(`${app.baseUrl}/api/console/shares/${created.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ maxVisits: 3 }),
    });
    expect([401, 403]).toContain(token.status);
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: created.id } } }));
    const revoked = await edit(alice, created.id, { maxVisits: 3 });
    expect(revoked.response.status).toBe(409);
    const [row] = await sql<{ max_visits: number | null }>(app, 'SELECT max_visits FROM shares WHERE id = $1', [created.id]);
    expect(row!.max_visits).toBeNull();
  });

  it('keeps parallel edits and visits consistent', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const outcomes = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => edit(alice, created.id, { maxVisits: 5 + (i % 3) }).then((r) => r.response.status)),
      ...Array.from({ length: 20 }, () => new HttpVisitor(app.baseUrl).get(path).then((visit) => visit.status)),
    ]);
    expect(outcomes.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(outcomes.slice(20).every((status) => status === 200 || status === 410)).toBe(true);
    const [row] = await sql<{ visit_count: number; max_visits: number }>(
      app,
      'SELECT visit_count, max_visits FROM shares WHERE id = $1',
      [created.id],
    );
    expect(row!.visit_count).toBeLessThanOrEqual(7);
    expect(outcomes.slice(20).filter((status) => status === 200)).toHaveLength(row!.visit_count);
  });
});
