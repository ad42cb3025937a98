import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { share, sql, upload } from '../support/browser.js';

interface Page {
  status: number;
  body: Record<string, unknown> & { files?: Array<{ id: string; name: string }>; shares?: Array<{ id: string }> };
}

describe('server-side pages of files and shares', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let folderId: string;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    const folder = await fetch(`${app.baseUrl}/api/console/folders`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'inside' }),
    });
    folderId = ((await folder.json()) as { folder: { id: string } }).folder.id;
    // Upper and lower case, digits and a space: the pages follow the database's own order of names.
    const names = Array.from({ length: 17 }, (_, i) => `${['b', 'A', 'c', 'a b', 'Z'][i % 5]}-${String(i).padStart(2, '0')}.md`);
    for (const name of names) await upload(app, alice, name, `# ${name}\n`, undefined, 'none');
    const form = new FormData();
    form.append('file', new Blob(['# in folder\n']), 'in-folder.md');
    form.append('folderId', folderId);
    const inFolder = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    expect(inFolder.status).toBe(200);
    await upload(app, bob, 'bob-only.md', '# bob\n', undefined, 'none');
  }, 120_000);
  afterAll(async () => {
    await app?.cleanup();
  });

  const get = async (user: TestUser, path: string, via: 'token' | 'session' = 'token'): Promise<Page> => {
    const headers: Record<string, string> = via === 'token' ? { authorization: `Bearer ${user.token}` } : { cookie: user.cookie };
    const response = await fetch(`${app.baseUrl}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as Page['body'] };
  };

  /** Reads every page; between pages `between(pageNumber)` may change the rows. */
  async function walk(
    user: TestUser,
    path: string,
    key: 'files' | 'shares' | 'tokens' | 'webhooks',
    limit: number,
    between: (page: number, read: string[]) => Promise<void> = async () => {},
    via: 'token' | 'session' = 'token',
  ): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page = await get(
        user,
        `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        via,
      );
      expect(page.status).toBe(200);
      const rows = page.body[key] as Array<{ id: string }>;
      expect(rows.length).toBeLessThanOrEqual(limit);
      expect(Object.keys(page.body)).toContain('nextCursor');
      ids.push(...rows.map((row) => row.id));
      cursor = page.body.nextCursor as string | null;
      if (cursor) expect(rows.length).toBe(limit);
      pages += 1;
      if (cursor) await between(pages, [...ids]);
    } while (cursor);
    return { ids, pages };
  }

  it('answers the whole list exactly as before when neither limit nor cursor is sent', async () => {
    const files = await get(alice, '/api/v1/files');
    expect(Object.keys(files.body)).toEqual(['files']);
    expect(files.body.files).toHaveLength(18);
    const shares = await get(alice, '/api/v1/shares');
    expect(Object.keys(shares.body)).toEqual(['shares']);
  });

  it('pages files in the order of the whole list, each file once, and ends with a null cursor', async () => {
    const whole = (await get(alice, '/api/v1/files')).body.files!.map((file) => file.id);
    for (const limit of [1, 4, 17, 18, 200]) {
      const walked = await walk(alice, '/api/v1/files', 'files', limit);
      expect(walked.ids).toEqual(whole);
      expect(walked.pages).toBe(Math.max(1, Math.ceil(whole.length / limit)));
    }
  });

  it('combines folderId with paging: the pages of one folder only', async () => {
    const walked = await walk(alice, `/api/v1/files?folderId=${folderId}`, 'files', 1);
    expect(walked.ids).toHaveLength(1);
    const page = await get(alice, '/api/v1/files?limit=5&folderId=00000000-0000-4000-8000-000000000000');
    expect(page.status).toBe(404);
  });

  it('neither repeats nor skips files that stay while others are added and trashed between pages', async () => {
    const before = (await get(alice, '/api/v1/files')).body.files!;
    const addedFirst: string[] = [];
    const addedLast: string[] = [];
    const trashedUnread: string[] = [];
    const trashedRead: string[] = [];
    const walked = await walk(alice, '/api/v1/files', 'files', 3, async (page, read) => {
      // One file sorting before every other (so before the cursor) and one after every other are added;
      // one file already read and one not read yet go to the trash.
      addedFirst.push((await upload(app, alice, `0000-${page}.md`, 'x', undefined, 'none')).fileId);
      addedLast.push((await upload(app, alice, `zzzz-${page}.md`, 'x', undefined, 'none')).fileId);
      const listed = (await get(alice, '/api/v1/files')).body.files!.filter((file) =>
        before.some((original) => original.id === file.id),
      );
      const unread = listed.find((file) => !read.includes(file.id));
      const alreadyRead = listed.find((file) => read.includes(file.id));
      for (const [file, into] of [
        [unread, trashedUnread],
        [alreadyRead, trashedRead],
      ] as const) {
        if (!file) continue;
        const response = await fetch(`${app.baseUrl}/api/v1/files/${file.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${alice.token}` },
        });
        expect(response.status).toBe(200);
        into.push(file.id);
      }
    });
    expect(new Set(walked.ids).size).toBe(walked.ids.length);
    expect(trashedUnread.length).toBeGreaterThan(2);
    for (const file of before) {
      if (trashedUnread.includes(file.id)) expect(walked.ids).not.toContain(file.id);
      else expect(walked.ids).toContain(file.id);
    }
    for (const id of addedLast) expect(walked.ids).toContain(id);
    for (const id of addedFirst) expect(walked.ids).not.toContain(id);
  }, 120_000);

  it('pages shares newest first in the order of the whole list, ties of createdAt by id', async () => {
    const files = (await get(alice, '/api/v1/files')).body.files!;
    for (const file of files.slice(0, 5)) await share(alice, file.id);
    // Twelve shares of one instant: only the id tells them apart.
    await sql(
      app,
      `INSERT INTO shares (user_id, file_id, token, created_at)
       SELECT $1, $2, 'tie' || i || md5(random()::text), '2026-01-01T00:00:00.123456Z' FROM generate_series(1, 12) i`,
      [alice.userId, files[0]!.id],
    );
    const whole = (await get(alice, '/api/v1/shares')).body.shares!.map((item) => item.id);
    expect(whole).toHaveLength(17);
    for (const limit of [1, 5, 17, 50]) expect((await walk(alice, '/api/v1/shares', 'shares', limit)).ids).toEqual(whole);
    const ofOneFile = await walk(alice, `/api/v1/shares?fileId=${files[0]!.id}`, 'shares', 5);
    expect(ofOneFile.ids).toHaveLength(13);
    expect(ofOneFile.ids).toEqual(whole.filter((id) => ofOneFile.ids.includes(id)));
  });

  it('neither repeats nor skips shares that stay while others are created, revoked and deleted between pages', async () => {
    const before = (await get(alice, '/api/v1/shares')).body.shares!.map((item) => item.id);
    const files = (await get(alice, '/api/v1/files')).body.files!;
    const deleted: string[] = [];
    const created: string[] = [];
    const walked = await walk(alice, '/api/v1/shares', 'shares', 4, async (page) => {
      created.push((await share(alice, files[page]!.id)).share.id);
      // Revoked shares stay in the list; a deleted row (as a purge removes it) leaves it.
      await fetch(`${app.baseUrl}/api/v1/shares/${before[page * 4 + 1]}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${alice.token}` },
      });
      const victim = before[before.length - page];
      if (victim) {
        await sql(app, 'DELETE FROM shares WHERE id = $1', [victim]);
        deleted.push(victim);
      }
    });
    expect(new Set(walked.ids).size).toBe(walked.ids.length);
    expect(walked.ids).toEqual(before.filter((id) => !deleted.includes(id)));
    expect(walked.ids.some((id) => created.includes(id))).toBe(false);
  }, 60_000);

  it('refuses a limit outside 1..200 and anything that is not a cursor with 400 VALIDATION', async () => {
    for (const route of ['/api/v1/files', '/api/v1/shares']) {
      for (const query of ['limit=0', 'limit=201', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=', 'limit=1&limit=2']) {
        const page = await get(alice, `${route}?${query}`);
        expect(page.status, `${route}?${query}`).toBe(400);
        expect(page.body.code).toBe('VALIDATION');
        expect(typeof page.body.error).toBe('string');
      }
      const forged = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');
      for (const cursor of [
        'garbage!',
        'Z2FyYmFnZQ',
        forged(['shares', 'yesterday', 'not-a-uuid']),
        forged(['files']),
        forged({ name: 'a' }),
        forged(
          route.endsWith('files')
            ? ['shares', '2026-01-01T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000']
            : ['files', 'a', '00000000-0000-4000-8000-000000000000'],
        ),
        'A'.repeat(3000),
      ]) {
        const page = await get(alice, `${route}?limit=5&cursor=${encodeURIComponent(cursor)}`);
        expect(page.status, `${route} cursor ${cursor.slice(0, 40)}`).toBe(400);
        expect(page.body.code).toBe('VALIDATION');
      }
      expect((await get(alice, `${route}?limit=200`)).status).toBe(200);
      const cursorOnly = await get(alice, `${route}?cursor=`);
      expect(cursorOnly.status).toBe(200);
      expect(cursorOnly.body).toHaveProperty('nextCursor');
    }
  });

  it("reads nothing of another account through its cursor: the position applies to the caller's own rows", async () => {
    const aliceFiles = await get(alice, '/api/v1/files?limit=1');
    const aliceShares = await get(alice, '/api/v1/shares?limit=1');
    const bobShare = await share(bob, (await get(bob, '/api/v1/files')).body.files![0]!.id);
    const files = await get(bob, `/api/v1/files?limit=200&cursor=${encodeURIComponent(aliceFiles.body.nextCursor as string)}`);
    const shares = await get(bob, `/api/v1/shares?limit=200&cursor=${encodeURIComponent(aliceShares.body.nextCursor as string)}`);
    expect(files.status).toBe(200);
    expect(shares.status).toBe(200);
    const aliceIds = new Set([
      ...(await get(alice, '/api/v1/files')).body.files!.map((file) => file.id),
      ...(await get(alice, '/api/v1/shares')).body.shares!.map((item) => item.id),
    ]);
    for (const row of [...files.body.files!, ...shares.body.shares!]) expect(aliceIds.has(row.id)).toBe(false);
    expect(files.body.files!.map((file) => file.name)).toEqual(['bob-only.md']);
    // Bob's share is newer than Alice's first one, so it lies before her cursor's position.
    expect(shares.body.shares!.map((item) => item.id)).not.toContain(bobShare.share.id);
  });

  it('pages the console list with status and text filters on the server, with the count and the totals', async () => {
    const all = (await get(alice, '/api/console/shares', 'session')).body.shares!;
    expect(Object.keys((await get(alice, '/api/console/shares', 'session')).body)).toEqual(['shares']);
    const first = await get(alice, '/api/console/shares?limit=2&status=revoked', 'session');
    expect(first.status).toBe(200);
    const revoked = all.filter((item) => (item as { revokedAt: string | null }).revokedAt);
    expect(first.body.total).toBe(revoked.length);
    const walked = await walk(alice, '/api/console/shares?status=revoked', 'shares', 2, undefined, 'session');
    expect(walked.ids).toEqual(revoked.map((item) => item.id));
    const needle = (all.at(-1) as { fileName: string }).fileName.toUpperCase();
    const byName = await get(alice, `/api/console/shares?limit=50&q=${encodeURIComponent(needle)}`, 'session');
    const named = all.filter((item) =>
      `${(item as { fileName: string }).fileName} ${(item as { token: string }).token}`
        .toLowerCase()
        .includes(needle.toLowerCase()),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(byName.body.total).toBe(named.length);
    expect(byName.body.shares!.map((item) => item.id)).toEqual(named.map((item) => item.id));
    const percent = await get(alice, `/api/console/shares?limit=50&q=${encodeURIComponent('%')}`, 'session');
    expect(percent.body.total).toBe(0);
    expect((await get(alice, '/api/console/shares?limit=5&status=gone', 'session')).status).toBe(400);
    const totals = await get(alice, '/api/console/shares/totals', 'session');
    expect(totals.body).toEqual({
      active: all.filter((item) => !(item as { revokedAt: string | null }).revokedAt).length,
      visits: 0,
      uniqueVisits: 0,
    });
  });
  it('pages the console lists of tokens and webhooks newest first, with their search, counts and the same cursor rules', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { cookie: alice.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (let i = 0; i < 6; i++) expect((await post('/api/tokens', { name: `robot-${i}` })).status).toBe(200);
    const wholeTokens = (await get(alice, '/api/tokens', 'session')).body as { tokens: Array<{ id: string; name: string }> };
    expect(Object.keys(wholeTokens)).toEqual(['tokens']);
    expect((await walk(alice, '/api/tokens', 'tokens', 2, undefined, 'session')).ids).toEqual(
      wholeTokens.tokens.map((token) => token.id),
    );
    const robots = await get(alice, '/api/tokens?limit=4&q=ROBOT', 'session');
    expect(robots.body.total).toBe(6);
    expect(robots.body.nextCursor).toEqual(expect.any(String));

    await sql(
      app,
      `INSERT INTO webhooks (user_id, url, events, secret, active, created_at)
       SELECT $1, 'https://hooks.example.com/' || i, ARRAY['share_visited'], 'whsec_x', i <= 3, '2026-01-01T00:00:00Z'
       FROM generate_series(1, 7) i`,
      [alice.userId],
    );
    const wholeHooks = (await get(alice, '/api/webhooks', 'session')).body as { webhooks: Array<{ id: string }> };
    expect(Object.keys(wholeHooks)).toEqual(['webhooks']);
    expect((await walk(alice, '/api/webhooks', 'webhooks', 3, undefined, 'session')).ids).toEqual(
      wholeHooks.webhooks.map((hook) => hook.id),
    );
    const hooks = await get(alice, '/api/webhooks?limit=2&q=example.com%2F1', 'session');
    expect(hooks.body).toMatchObject({ total: 1, activeCount: 3, nextCursor: null });

    const sharesCursor = (await get(alice, '/api/v1/shares?limit=1')).body.nextCursor as string;
    for (const route of ['/api/tokens', '/api/webhooks']) {
      expect((await get(alice, `${route}?limit=0`, 'session')).body.code).toBe('VALIDATION');
      expect((await get(alice, `${route}?limit=5&cursor=${encodeURIComponent(sharesCursor)}`, 'session')).body.code).toBe(
        'VALIDATION',
      );
      expect((await get(alice, `${route}?limit=5&q=${encodeURIComponent('a\u0001')}`, 'session')).body.code).toBe('VALIDATION');
      const foreign = (await get(alice, `${route}?limit=1`, 'session')).body.nextCursor as string;
      const asBob = await get(bob, `${route}?limit=200&cursor=${encodeURIComponent(foreign)}`, 'session');
      expect(asBob.status).toBe(200);
      const rows = (asBob.body.tokens ?? asBob.body.webhooks) as Array<{ id: string }>;
      const alices = new Set([...wholeTokens.tokens, ...wholeHooks.webhooks].map((row) => row.id));
      for (const row of rows) expect(alices.has(row.id)).toBe(false);
    }
  });
});
