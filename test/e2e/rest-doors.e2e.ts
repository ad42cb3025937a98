import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload } from '../support/browser.js';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** The console's folder, trash, file, share, notification and activity operations with a bearer token. */
describe('console operations through the REST API', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let reader: SharedownClient;

  const status = async (call: Promise<{ response: Response; error?: unknown }>) => {
    const { response, error } = await call;
    return { status: response.status, code: (error as { code?: string } | undefined)?.code };
  };
  const usedBytes = async (user: TestUser) => (await unwrap(user.api.GET('/api/v1/me'))).user.usedBytes;
  const raw = (user: TestUser, path: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${user.token}`, ...init.headers } });

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    bob = await createUser(app.baseUrl);
    const created = await unwrap(
      alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
    );
    reader = createSharedownClient({ baseUrl: app.baseUrl, token: created.plaintext });
  });
  afterAll(async () => app?.cleanup());

  it('creates, renames, moves and trashes folders; a folder never moves below itself', async () => {
    const { folder: reports } = await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Reports' } }));
    const { folder: q1 } = await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Q1', parentId: reports.id } }));
    expect(q1).toMatchObject({ name: 'Q1', parentId: reports.id });

    const tree = await unwrap(alice.api.GET('/api/v1/folders'));
    const top = tree.folders.find((folder) => folder.id === reports.id)!;
    expect(top.children.map((child) => child.id)).toEqual([q1.id]);

    expect(
      await status(alice.api.PATCH('/api/v1/folders/{id}', { params: { path: { id: reports.id } }, body: { parentId: q1.id } })),
    ).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    expect(await status(alice.api.POST('/api/v1/folders', { body: { name: 'Q1', parentId: reports.id } }))).toMatchObject({
      status: 409,
    });
    const renamed = await unwrap(
      alice.api.PATCH('/api/v1/folders/{id}', { params: { path: { id: q1.id } }, body: { name: 'Quarter 1', parentId: null } }),
    );
    expect(renamed.folder).toMatchObject({ id: q1.id, name: 'Quarter 1', parentId: null });

    // The /v1 mount answers the same.
    const viaV1 = (await (await raw(alice, '/v1/folders')).json()) as { folders: { id: string }[] };
    expect(viaV1.folders.map((folder) => folder.id).sort()).toEqual([reports.id, q1.id].sort());

    // Another account's folder does not exist for bob, whatever he tries.
    expect(await status(bob.api.PATCH('/api/v1/folders/{id}', { params: { path: { id: q1.id } }, body: { name: 'x' } }))).toEqual(
      {
        status: 404,
        code: 'NOT_FOUND',
      },
    );
    expect(await status(bob.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: q1.id } } }))).toMatchObject({
      status: 404,
    });
    expect(await status(bob.api.POST('/api/v1/folders', { body: { name: 'inside', parentId: q1.id } }))).toMatchObject({
      status: 404,
    });
    expect(await status(alice.api.POST('/api/v1/folders', { body: { name: '' } }))).toMatchObject({
      status: 400,
      code: 'VALIDATION',
    });

    // A move onto a same-named folder is a DUPLICATE that names the folder.
    const { folder: twin } = await unwrap(
      alice.api.POST('/api/v1/folders', { body: { name: 'Quarter 1', parentId: reports.id } }),
    );
    const clash = await alice.api.PATCH('/api/v1/folders/{id}', { params: { path: { id: twin.id } }, body: { parentId: null } });
    expect(clash.response.status).toBe(409);
    expect(clash.error).toMatchObject({ code: 'DUPLICATE', error: expect.stringContaining('「Quarter 1」') });

    const trashed = await unwrap(alice.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: reports.id } } }));
    expect(trashed.folder.id).toBe(reports.id);
    expect((await unwrap(alice.api.GET('/api/v1/folders'))).folders.map((folder) => folder.id)).toEqual([q1.id]);
  });

  it('renames and moves a file with the upload rules', async () => {
    const { folder } = await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Drafts' } }));
    const doc = await upload(app, alice, 'plan.md', '# Plan\n');
    await upload(app, alice, 'taken.md', '# Taken\n');
    const id = doc.fileId;
    const patch = (body: { name?: string; folderId?: string | null }, user = alice) =>
      user.api.PATCH('/api/v1/files/{id}', { params: { path: { id } }, body });

    const moved = await unwrap(patch({ folderId: folder.id, name: 'plan-v2.markdown' }));
    expect(moved.file).toMatchObject({ id, name: 'plan-v2.markdown', folderId: folder.id, kind: 'MARKDOWN' });
    expect(await status(patch({ name: 'plan.html' }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await status(patch({ name: 'bad/name.md' }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await status(patch({ name: 'taken.md', folderId: null }))).toEqual({ status: 409, code: 'DUPLICATE' });
    expect(await status(patch({ name: 'other.md' }, bob))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await status(patch({ folderId: '00000000-0000-4000-8000-000000000000' }))).toMatchObject({ status: 404 });
    expect((await unwrap(patch({ folderId: null }))).file.folderId).toBeNull();
    expect(await status(reader.PATCH('/api/v1/files/{id}', { params: { path: { id } }, body: { name: 'r.md' } }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  });

  it('hands out the text a share serves, with its media type, and never quarantined content', async () => {
    const markdown = '# Überblick\n\nZeile mit → Pfeil und 漢字\n';
    const md = await upload(app, alice, '概要.md', markdown);
    const html = await upload(app, alice, 'page.html', '<p>hello <script>alert(1)</script></p>');
    const text = await upload(app, alice, 'notes.txt', 'plain\r\ntext');

    const response = await raw(alice, `/api/v1/files/${md.fileId}/content`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''%E6%A6%82%E8%A6%81.md");
    expect(response.headers.get('x-version-id')).toBe(md.versionId);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(markdown, 'utf8'))).toBe(true);

    const htmlResponse = await raw(alice, `/v1/files/${html.fileId}/content`);
    expect(htmlResponse.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(htmlResponse.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(htmlResponse.headers.get('content-security-policy')).toContain('sandbox');
    expect(await htmlResponse.text()).toBe('<p>hello <script>alert(1)</script></p>');

    const plain = await raw(alice, `/api/v1/files/${text.fileId}/content`);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await plain.text()).toBe('plain\r\ntext');

    // A read-scoped token may read; another account may not know the file exists.
    expect(
      (await reader.GET('/api/v1/files/{id}/content', { params: { path: { id: md.fileId } }, parseAs: 'text' })).response.status,
    ).toBe(200);
    const foreign = await raw(bob, `/api/v1/files/${md.fileId}/content`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'NOT_FOUND' });

    const infected = await upload(app, alice, 'eicar.txt', EICAR, undefined, 'INFECTED');
    const refused = await raw(alice, `/api/v1/files/${infected.fileId}/content`);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/json');
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe('INFECTED');
    expect(JSON.stringify(body)).not.toContain('EICAR-STANDARD');
  });

  it('lists, restores and purges the trash; a purge frees the quota exactly once', async () => {
    const owner = await createUser(app.baseUrl);
    const { folder } = await unwrap(owner.api.POST('/api/v1/folders', { body: { name: 'Box' } }));
    const inBox = await upload(app, owner, 'in-box.md', '# in the box\n');
    await unwrap(
      owner.api.PATCH('/api/v1/files/{id}', { params: { path: { id: inBox.fileId } }, body: { folderId: folder.id } }),
    );
    const loose = await upload(app, owner, 'loose.md', '# loose file\n');
    const size = (await unwrap(owner.api.GET('/api/v1/files/{id}', { params: { path: { id: loose.fileId } } }))).sizeBytes;
    const before = await usedBytes(owner);

    await unwrap(owner.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: folder.id } } }));
    await unwrap(owner.api.DELETE('/api/v1/files/{id}', { params: { path: { id: loose.fileId } } }));
    const listed = await unwrap(owner.api.GET('/api/v1/trash'));
    expect(listed.folders.map((entry) => entry.id)).toEqual([folder.id]);
    expect(listed.folders[0]!.fileCount).toBe(1);
    expect(listed.files.map((entry) => entry.id)).toEqual([loose.fileId]);
    expect((await unwrap(bob.api.GET('/api/v1/trash'))).files).toEqual([]);
    expect(
      await status(bob.api.POST('/api/v1/trash/files/{id}/restore', { params: { path: { id: loose.fileId } } })),
    ).toMatchObject({
      status: 404,
    });

    const restored = await unwrap(owner.api.POST('/api/v1/trash/folders/{id}/restore', { params: { path: { id: folder.id } } }));
    expect(restored).toMatchObject({ folder: { id: folder.id }, renamed: false });
    expect((await unwrap(owner.api.GET('/api/v1/files', { params: { query: { folderId: folder.id } } }))).files).toHaveLength(1);

    // Dozens of parallel purges of one file: one frees its bytes, the others find nothing.
    const purges = await Promise.all(
      Array.from({ length: 24 }, () => owner.api.DELETE('/api/v1/trash/files/{id}', { params: { path: { id: loose.fileId } } })),
    );
    const done = purges.filter((purge) => purge.response.status === 200);
    expect(done).toHaveLength(1);
    expect(done[0]!.data).toEqual({ purgedFiles: 1, freedBytes: size });
    expect(purges.filter((purge) => purge.response.status === 404)).toHaveLength(23);
    expect(await usedBytes(owner)).toBe(before - size);

    const file = await upload(app, owner, 'restore-me.md', '# back\n');
    await unwrap(owner.api.DELETE('/api/v1/files/{id}', { params: { path: { id: file.fileId } } }));
    const back = await unwrap(owner.api.POST('/api/v1/trash/files/{id}/restore', { params: { path: { id: file.fileId } } }));
    expect(back).toMatchObject({ file: { id: file.fileId, name: 'restore-me.md' }, renamed: false });

    // Emptying the trash through the token frees everything in it, once.
    await unwrap(owner.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: folder.id } } }));
    await unwrap(owner.api.DELETE('/api/v1/files/{id}', { params: { path: { id: file.fileId } } }));
    expect(await status(reader.DELETE('/api/v1/trash'))).toEqual({ status: 403, code: 'FORBIDDEN' });
    const [first, second] = await Promise.all([owner.api.DELETE('/api/v1/trash'), owner.api.DELETE('/api/v1/trash')]);
    const total = (first.data?.freedBytes ?? 0) + (second.data?.freedBytes ?? 0);
    expect((first.data?.purgedFiles ?? 0) + (second.data?.purgedFiles ?? 0)).toBe(2);
    // Nothing else is left: what the trash held is exactly what its purge freed.
    expect(total).toBe(before - size + 7);
    expect(await usedBytes(owner)).toBe(0);
    expect(await unwrap(owner.api.GET('/api/v1/trash'))).toEqual({ folders: [], files: [] });
  });

  it('edits a live share with the console rules and reads its policies and analytics', async () => {
    const doc = await upload(app, alice, 'edit-me.md', '# edit me\n');
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const patch = (body: Record<string, unknown>, user = alice, id = created.id) =>
      user.api.PATCH('/api/v1/shares/{id}', { params: { path: { id } }, body: body as never });

    const capped = await unwrap(patch({ maxVisits: 2, oneSession: true, emailAllowlist: [] }));
    expect(capped).toMatchObject({ id: created.id, token: created.token, maxVisits: 2 });
    expect(await unwrap(alice.api.GET('/api/v1/shares/{id}/policies', { params: { path: { id: created.id } } }))).toEqual({
      oneSession: true,
      emailAllowlist: [],
    });
    await unwrap(patch({ oneSession: false }));
    const visits = await Promise.all(Array.from({ length: 8 }, () => new HttpVisitor(app.baseUrl).get(path)));
    expect(visits.filter(isDocument)).toHaveLength(2);
    const cleared = await unwrap(patch({ maxVisits: null }));
    expect(cleared).toMatchObject({ maxVisits: null, consumedAt: null });
    expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);

    expect(await status(patch({ maxVisits: 0 }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await status(patch({}))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await status(patch({ maxVisits: 5 }, bob))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(
      await status(
        reader.PATCH('/api/v1/shares/{id}', { params: { path: { id: created.id } }, body: { maxVisits: 5 } as never }),
      ),
    ).toEqual({ status: 403, code: 'FORBIDDEN' });

    // The visit log is written behind the answer; wait for the three admitted visits to land.
    const analyticsOf = () =>
      unwrap(alice.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: created.id }, query: { days: 7 } } }));
    const deadline = Date.now() + 20_000;
    let analytics = await analyticsOf();
    while (analytics.humanVisits + analytics.automatedVisits < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      analytics = await analyticsOf();
    }
    expect(analytics.days).toHaveLength(7);
    expect(analytics.days.reduce((sum, day) => sum + day.human + day.automated, 0)).toBe(3);
    expect(
      await status(alice.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: created.id }, query: { days: 0 } } })),
    ).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await status(bob.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: created.id } } }))).toMatchObject({
      status: 404,
    });

    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: created.id } } }));
    expect(await status(patch({ maxVisits: 3 }))).toEqual({ status: 409, code: 'CONFLICT' });
  });

  it('edits of one share race to one outcome, never a 500', async () => {
    const doc = await upload(app, alice, 'raced.md', '# raced\n');
    const { share: created } = await share(alice, doc.fileId);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        alice.api.PATCH('/api/v1/shares/{id}', { params: { path: { id: created.id } }, body: { maxVisits: index + 1 } as never }),
      ),
    );
    expect(results.every((result) => result.response.status === 200)).toBe(true);
    const final = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: created.id } } }));
    // The row lock serialises the edits: the share ends with one of the values sent, whole, and
    // every edit is in its change history once.
    expect(results.map((result) => result.data!.maxVisits)).toContain(final.maxVisits);
    const recorded = await sql<{ max_visits: number }>(
      app,
      "SELECT (changes->>'maxVisits')::int AS max_visits FROM share_policy_changes WHERE share_id = $1",
      [created.id],
    );
    expect(recorded.map((row) => row.max_visits).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("reads and marks the account's notifications, and pages its activity", async () => {
    const owner = await createUser(app.baseUrl);
    const doc = await upload(app, owner, 'watched.md', '# watched\n');
    const { url } = await share(owner, doc.fileId, { notify: 'every' } as never);
    const path = new URL(url).pathname;
    for (let i = 0; i < 2; i++) expect(isDocument(await new HttpVisitor(app.baseUrl).get(path))).toBe(true);

    const deadline = Date.now() + 20_000;
    let listed = await unwrap(owner.api.GET('/api/v1/notifications'));
    // The list and its unread count are two reads: wait until both have seen the two visits.
    while ((listed.unreadCount < 2 || listed.notifications.length < 2) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      listed = await unwrap(owner.api.GET('/api/v1/notifications'));
    }
    expect(listed.unreadCount).toBe(2);
    expect(listed.notifications).toHaveLength(2);
    expect((await unwrap(bob.api.GET('/api/v1/notifications'))).notifications).toEqual([]);
    expect(await status(reader.POST('/api/v1/notifications/read', { body: {} }))).toEqual({ status: 403, code: 'FORBIDDEN' });
    // Bob's attempt on the owner's ids changes nothing.
    const ids = listed.notifications.map((notification) => notification.id);
    await unwrap(bob.api.POST('/api/v1/notifications/read', { body: { ids } }));
    expect((await unwrap(owner.api.GET('/api/v1/notifications'))).unreadCount).toBe(2);
    expect(await unwrap(owner.api.POST('/api/v1/notifications/read', { body: { ids: [ids[0]!] } }))).toEqual({ unreadCount: 1 });
    expect(await unwrap(owner.api.POST('/api/v1/notifications/read', { body: {} }))).toEqual({ unreadCount: 0 });

    await unwrap(owner.api.DELETE('/api/v1/files/{id}', { params: { path: { id: doc.fileId } } }));
    const first = await unwrap(owner.api.GET('/api/v1/activity', { params: { query: { limit: '1' } } }));
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ action: 'file.deleted', targetId: doc.fileId });
    expect(first.nextCursor).toBe(first.events[0]!.id);
    const rest = await unwrap(owner.api.GET('/api/v1/activity', { params: { query: { cursor: first.nextCursor! } } }));
    expect(rest.events.map((event) => event.action)).toContain('share.created');
    expect(rest.events.map((event) => event.id)).not.toContain(first.events[0]!.id);
    // Each account sees only its own trail.
    const bobs = await unwrap(bob.api.GET('/api/v1/activity'));
    expect(bobs.events.some((event) => event.targetId === doc.fileId)).toBe(false);
    expect(await status(owner.api.GET('/api/v1/activity', { params: { query: { limit: '0' } } }))).toMatchObject({
      status: 400,
      code: 'VALIDATION',
    });
  });

  it('keeps the console session off the token routes and tokens off the console routes', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    expect((await anonymous.GET('/api/v1/folders')).response.status).toBe(401);
    expect((await alice.console.GET('/api/v1/trash')).response.status).toBe(401);
    expect(await status(alice.api.GET('/api/console/trash'))).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
});
