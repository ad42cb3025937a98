import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrap, type Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connected } from '../support/mcp-server.js';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, sql, waitForScan } from '../support/browser.js';
import { EICAR } from '../support/clamd.js';
import { followsWithin, OTHER_PROCESS_MS } from '../support/follows-within.js';

type Share = Schemas['ShareDto'];
type Created = Schemas['CreatedShareDto'];

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

let folderCount = 0;

/** A new folder; its name gets a number so that a retried test makes its own. */
async function folder(user: TestUser, name: string, parentId?: string): Promise<string> {
  const unique = parentId ? name : `${name} ${++folderCount}`;
  const created = await unwrap(user.api.POST('/api/v1/folders', { body: { name: unique, ...(parentId ? { parentId } : {}) } }));
  return created.folder.id;
}

/** Uploads a document into a folder and waits until its scan settles. */
async function put(
  app: RunningApp,
  user: TestUser,
  name: string,
  content: string,
  folderId: string | null,
  settle: 'CLEAN' | 'INFECTED' = 'CLEAN',
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  if (folderId) form.append('folderId', folderId);
  const response = await fetch(`${app.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const { file } = (await response.json()) as { file: { id: string } };
  await waitForScan(user, file.id, settle);
  return file.id;
}

async function shareFolder(user: TestUser, folderId: string, input: Schemas['ShareInputDto'] = {}): Promise<Created> {
  return unwrap(user.api.POST('/api/v1/shares', { body: { folderId, ...input } }));
}

async function getShare(user: TestUser, id: string): Promise<Share> {
  return unwrap(user.api.GET('/api/v1/shares/{id}', { params: { path: { id } } }));
}

/** The file ids a collection page links to, in page order. */
function listed(body: string): string[] {
  return [...body.matchAll(/data-file="([0-9a-f-]{36})"/g)].map((match) => match[1]!);
}

describe('collections: a share of a folder', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let handbook: string;
  let policies: string;
  let old: string;
  let elsewhere: string;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = [await createUser(app.baseUrl), await createUser(app.baseUrl)];
    handbook = await folder(alice, 'Handbook');
    policies = await folder(alice, 'Policies', handbook);
    old = await folder(alice, 'Old', policies);
    elsewhere = await folder(alice, 'Elsewhere');
    files.intro = await put(app, alice, 'intro.md', '# Intro\n\nWelcome aboard.\n', handbook);
    files.notes = await put(app, alice, 'notes.txt', 'plain notes\n', handbook);
    files.leave = await put(app, alice, 'leave.html', '<!doctype html><h1>Leave policy</h1>', policies);
    files.archive = await put(app, alice, 'archive.md', '# Archive\n', old);
    files.outside = await put(app, alice, 'outside.md', '# Outside\n', elsewhere);
    files.bobs = await put(app, bob, 'bobs.md', '# Bob\n', null);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  describe('creating and listing', () => {
    it('shares a folder: the share names the folder and no file', async () => {
      const created = await shareFolder(alice, handbook);
      expect(created.share).toMatchObject({
        folderId: handbook,
        folderName: expect.stringMatching(/^Handbook \d+$/),
        visitCount: 0,
      });
      expect(created.share).not.toHaveProperty('fileId');
      expect(created.share).not.toHaveProperty('fileName');
      expect(created.share).not.toHaveProperty('fileKind');
      expect(created.url).toBe(`${app.baseUrl}/s/${alice.segment}/${created.share.token}`);
      expect(await getShare(alice, created.share.id)).toEqual(created.share);
    });

    it('refuses both or neither of fileId and folderId, and a pinned version for a folder, naming the field', async () => {
      const both = await alice.api.POST('/api/v1/shares', { body: { fileId: files.intro, folderId: handbook } });
      expect(both.response.status).toBe(400);
      expect(both.error).toMatchObject({ code: 'VALIDATION', field: 'folderId' });
      const neither = await alice.api.POST('/api/v1/shares', { body: { maxVisits: 3 } });
      expect(neither.response.status).toBe(400);
      expect(neither.error).toMatchObject({ code: 'VALIDATION', field: 'fileId' });
      const [version] = await sql<{ id: string }>(app, 'SELECT current_version_id AS id FROM files WHERE id = $1', [files.intro]);
      const pinned = await alice.api.POST('/api/v1/shares', { body: { folderId: handbook, lockedVersionId: version!.id } });
      expect(pinned.response.status).toBe(400);
      expect(pinned.error).toMatchObject({ code: 'VALIDATION', field: 'lockedVersionId' });
      // Nothing half-written: only the collection of the first test exists.
      const collections = await sql(app, 'SELECT id FROM shares WHERE user_id = $1 AND folder_id IS NOT NULL', [alice.userId]);
      expect(collections).toHaveLength(1);
    });

    it("answers 404 for another account's folder, an unknown one and one in the trash", async () => {
      const bobsFolder = await folder(bob, 'Private');
      const trashed = await folder(alice, 'Gone');
      await unwrap(alice.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: trashed } } }));
      for (const folderId of [bobsFolder, '00000000-0000-4000-8000-000000000000', trashed, 'not-a-folder']) {
        const answer = await alice.api.POST('/api/v1/shares', { body: { folderId } });
        expect(answer.response.status).toBe(404);
        expect(answer.error).toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('lists the collections of a folder with ?folderId=, paged or not, and in the console list', async () => {
      const first = await shareFolder(alice, policies);
      const second = await shareFolder(alice, policies, { maxVisits: 4 });
      await unwrap(alice.api.POST('/api/v1/shares', { body: { fileId: files.leave } }));
      const all = await unwrap(alice.api.GET('/api/v1/shares', { params: { query: { folderId: policies } } }));
      expect(all.shares.map((share) => share.id)).toEqual([second.share.id, first.share.id]);
      const paged = await unwrap(alice.api.GET('/api/v1/shares', { params: { query: { folderId: policies, limit: '1' } } }));
      expect(paged.shares.map((share) => share.id)).toEqual([second.share.id]);
      expect(paged.nextCursor).toEqual(expect.any(String));
      const consoleList = await unwrap(
        alice.console.GET('/api/console/shares', { params: { query: { folderId: policies, q: 'Polic' } } }),
      );
      expect(consoleList.shares.map((share) => share.id)).toEqual([second.share.id, first.share.id]);
      expect((await unwrap(bob.api.GET('/api/v1/shares', { params: { query: { folderId: policies } } }))).shares).toEqual([]);
      // Every list keeps the collections: the whole list holds them beside the file shares.
      const everything = await unwrap(alice.api.GET('/api/v1/shares'));
      expect(everything.shares.filter((share) => share.folderId === policies)).toHaveLength(2);
      expect(everything.shares.some((share) => share.fileId === files.leave)).toBe(true);
    });

    it('edits a collection share, and refuses to pin it to a version', async () => {
      const { share } = await shareFolder(alice, old);
      const edited = await unwrap(
        alice.api.PATCH('/api/v1/shares/{id}', { params: { path: { id: share.id } }, body: { maxVisits: 9 } }),
      );
      expect(edited).toMatchObject({ id: share.id, folderId: old, folderName: 'Old', maxVisits: 9 });
      const pin = await alice.api.PATCH('/api/v1/shares/{id}', {
        params: { path: { id: share.id } },
        body: { lockedVersionId: '00000000-0000-4000-8000-000000000000' } as never,
      });
      expect(pin.response.status).toBe(400);
      expect(pin.error).toMatchObject({ code: 'VALIDATION' });
    });
  });

  describe('the collection page and its documents', () => {
    it('lists the CLEAN documents of the folder and its sub-folders, grouped by sub-folder', async () => {
      const { url } = await shareFolder(alice, handbook);
      const page = await new HttpVisitor(app.baseUrl, CHROME).get(new URL(url).pathname);
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/<h1>Handbook \d+<\/h1>/);
      expect(listed(page.body)).toEqual([files.intro, files.notes, files.leave, files.archive]);
      expect(page.body).toContain('data-folder="Policies"');
      expect(page.body).toContain('data-folder="Policies / Old"');
      expect(page.body).not.toContain(files.outside);
      const path = new URL(url).pathname;
      expect(page.body).toContain(`href="${path}/d/${files.intro}"`);
    });

    it('never lists a quarantined, trashed or moved-out document, and shows one added later at once', async () => {
      const team = await folder(alice, 'Team');
      const kept = await put(app, alice, 'kept.md', '# Kept\n', team);
      const trashed = await put(app, alice, 'trashed.md', '# Trashed\n', team);
      const moved = await put(app, alice, 'moved.md', '# Moved\n', team);
      const infected = await put(app, alice, 'eicar.txt', EICAR, team, 'INFECTED');
      const { url } = await shareFolder(alice, team);
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      const path = new URL(url).pathname;
      expect(listed((await visitor.get(path)).body)).toEqual([kept, moved, trashed]);

      await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: trashed } } }));
      const away = await folder(alice, 'Away');
      await unwrap(alice.api.PATCH('/api/v1/files/{id}', { params: { path: { id: moved } }, body: { folderId: away } }));
      const later = await put(app, alice, 'later.md', '# Later\n', team);
      expect(listed((await visitor.get(path)).body)).toEqual([kept, later]);
      for (const gone of [trashed, moved]) {
        expect((await visitor.get(`${path}/d/${gone}`)).status).toBe(404);
      }
      // A quarantined document of the folder says so, as a single share of it does.
      const quarantined = await visitor.get(`${path}/d/${infected}`);
      expect(quarantined.status).toBe(410);
      expect(quarantined.body).not.toContain('X5O!P%@AP');
      expect(isDocument(await visitor.get(`${path}/d/${later}`))).toBe(true);
    });

    it('opens each document with the share’s watermark and a link back; a file outside the folder is 404', async () => {
      const { url } = await shareFolder(alice, handbook, {
        watermarkEnabled: true,
        watermarkText: 'HANDBOOK-ONLY',
        copyProtectionEnabled: true,
      });
      const path = new URL(url).pathname;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      expect((await visitor.get(path)).status).toBe(200);
      const intro = await visitor.get(`${path}/d/${files.intro}`);
      expect(isDocument(intro)).toBe(true);
      expect(intro.body).toContain('Welcome aboard.');
      expect(intro.body).toContain('HANDBOOK-ONLY');
      expect(intro.body).toContain('class="sd-protect"');
      expect(intro.body).toContain(`class="sd-back" href="${path}?back"`);
      // The author's HTML stays in the sandboxed frame, as for a single document.
      const leave = await visitor.get(`${path}/d/${files.leave}`);
      expect(leave.body).toContain('class="sd-frame"');
      expect(leave.body).not.toContain('Leave policy');
      const frame = /src="(\/s\/_render\/[^"]+)"/.exec(leave.body)![1]!;
      const framed = await visitor.get(frame.replace(/&amp;/g, '&'));
      expect(framed.status).toBe(200);
      expect(framed.body).toContain('Leave policy');
      for (const foreign of [files.outside, files.bobs, '00000000-0000-4000-8000-000000000000', 'x']) {
        expect((await visitor.get(`${path}/d/${foreign}`)).status).toBe(404);
      }
      // The legacy link form works too.
      const token = path.split('/').pop()!;
      expect(isDocument(await visitor.get(`/s/${token}/d/${files.notes}`))).toBe(true);
    });

    it('a single file share has no document route', async () => {
      const created = await unwrap(alice.api.POST('/api/v1/shares', { body: { fileId: files.intro } }));
      const path = new URL(created.url).pathname;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      expect(isDocument(await visitor.get(path))).toBe(true);
      expect((await visitor.get(`${path}/d/${files.intro}`)).status).toBe(404);
    });
  });

  describe('policies apply to the collection as a whole', () => {
    it('counts the collection page once; documents opened in that visit count nothing and are logged as reads', async () => {
      const { share, url } = await shareFolder(alice, handbook);
      const path = new URL(url).pathname;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      expect((await visitor.get(path)).status).toBe(200);
      let beacon = '';
      for (let i = 0; i < 10; i++) {
        const page = await visitor.get(`${path}/d/${files.intro}`);
        expect(isDocument(page)).toBe(true);
        beacon = /data-visit="([^"]+)"/.exec(page.body)![1]!;
      }
      expect(isDocument(await visitor.get(`${path}/d/${files.archive}`))).toBe(true);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1, uniqueVisitCount: 1 });

      const answer = await fetch(`${app.baseUrl}/s/_beacon`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ v: beacon, t: '4000', d: '0.5', c: '1' }).toString(),
      });
      expect(answer.status).toBe(204);

      const deadline = Date.now() + 20_000;
      let visits: Schemas['ShareVisitPageDto']['visits'] = [];
      while (visits.length === 0 && Date.now() < deadline) {
        visits = (await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: share.id } } }))).visits;
        if (visits.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(visits).toHaveLength(1);
      const documents = visits[0]!.documents;
      expect(documents.map((read) => [read.fileId, read.fileName])).toEqual([
        [files.intro, 'intro.md'],
        [files.archive, 'archive.md'],
      ]);
      expect(documents[0]).toMatchObject({ scrollDepth: 0.5, completed: true });
      expect(documents[0]!.durationMs).toBeGreaterThan(0);
      expect(documents[1]).toMatchObject({ durationMs: 0, scrollDepth: 0, completed: false });
      const csv = await fetch(`${app.baseUrl}/api/v1/shares/${share.id}/visits.csv`, {
        headers: { authorization: `Bearer ${alice.token}` },
      }).then((response) => response.text());
      expect(csv.split('\n')[0]).toMatch(/,documents$/);
      expect(csv).toContain(files.archive);

      // The single file's share keeps an empty list.
      const single = await unwrap(alice.api.POST('/api/v1/shares', { body: { fileId: files.notes } }));
      await new HttpVisitor(app.baseUrl, CHROME).get(new URL(single.url).pathname);
      let singleVisits: Schemas['ShareVisitPageDto']['visits'] = [];
      while (singleVisits.length === 0 && Date.now() < deadline) {
        singleVisits = (await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: single.share.id } } })))
          .visits;
      }
      expect(singleVisits[0]!.documents).toEqual([]);
    });

    it('a deep link to a document goes through the gate first (password), then shows the document', async () => {
      const { share, url } = await shareFolder(alice, handbook, { password: 'open sesame' });
      const path = new URL(url).pathname;
      const deep = `${path}/d/${files.notes}`;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      const asked = await visitor.get(deep);
      expect(asked.status).toBe(401);
      expect(asked.body).toContain(`action="${deep}"`);
      expect(asked.body).not.toContain('plain notes');
      expect((await visitor.post(deep, { action: 'password', password: 'wrong' })).status).toBe(401);
      const typed = await visitor.post(deep, { action: 'password', password: 'open sesame' });
      expect(typed).toMatchObject({ status: 303, location: deep });
      const shown = await visitor.get(deep);
      expect(isDocument(shown)).toBe(true);
      expect(shown.body).toContain('plain notes');
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1 });
      // Within that visit, other documents count nothing more.
      expect(isDocument(await visitor.get(`${path}/d/${files.intro}`))).toBe(true);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1 });
      // Another browser holding the link alone is asked for the password again.
      expect((await new HttpVisitor(app.baseUrl, CHROME.replace('130', '131')).get(deep)).status).toBe(401);
    });

    it('a one-time collection opens for one visitor, whose documents stay open within the visit', async () => {
      const { share, url } = await shareFolder(alice, handbook, { oneTime: true });
      const path = new URL(url).pathname;
      const first = new HttpVisitor(app.baseUrl, CHROME);
      const reveal = await first.get(path);
      expect(reveal.status).toBe(200);
      expect(listed(reveal.body)).toEqual([]);
      const revealed = await first.post(path, { action: 'reveal' });
      expect(revealed.status).toBe(200);
      expect(listed(revealed.body)).toHaveLength(4);
      expect(isDocument(await first.get(`${path}/d/${files.intro}`))).toBe(true);
      expect(isDocument(await first.get(`${path}/d/${files.notes}`))).toBe(true);
      // Back from a document to the list stays within the visit; opening the link again is a new visit.
      const back = await first.get(`${path}?back`);
      expect(back.status).toBe(200);
      expect(listed(back.body)).toHaveLength(4);
      expect((await first.post(path, { action: 'reveal' })).status).toBe(410);
      const second = new HttpVisitor(app.baseUrl, 'Mozilla/5.0 Second');
      expect((await second.post(path, { action: 'reveal' })).status).toBe(410);
      // Without an admitted visit, the way back is the gate: used up.
      expect((await second.get(`${path}?back`)).status).toBe(410);
      expect((await second.post(`${path}/d/${files.intro}`, { action: 'reveal' })).status).toBe(410);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    });

    it('one reader, one visit: the link again, its documents and parallel requests within the pass count the visit that admitted it', async () => {
      const { share, url } = await shareFolder(alice, handbook, { maxVisits: 2 });
      const path = new URL(url).pathname;
      const reader = new HttpVisitor(app.baseUrl, CHROME);
      const first = await reader.get(path);
      expect(first.status).toBe(200);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1 });
      // Opening the link itself again, not only the way back, stays within the visit.
      const again = await reader.get(path);
      expect(again.status).toBe(200);
      expect(listed(again.body)).toEqual(listed(first.body));
      const parallel = await Promise.all(
        Array.from({ length: 24 }, (_, i) => reader.get(i % 2 ? path : `${path}/d/${i % 4 === 0 ? files.intro : files.notes}`)),
      );
      expect(parallel.map((page) => page.status)).toEqual(Array<number>(24).fill(200));
      expect(parallel.filter((_, i) => i % 2 === 0).every(isDocument)).toBe(true);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1, uniqueVisitCount: 1, consumedAt: null });
      // The cap of two is still there for one more reader, and only one.
      expect((await new HttpVisitor(app.baseUrl, 'Second/1').get(path)).status).toBe(200);
      expect((await new HttpVisitor(app.baseUrl, 'Third/1').get(path)).status).toBe(410);
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 2 });
    });

    it('revoking takes effect at once for the document pages of an admitted visit', async () => {
      const { share, url } = await shareFolder(alice, handbook);
      const path = new URL(url).pathname;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      expect((await visitor.get(path)).status).toBe(200);
      expect(isDocument(await visitor.get(`${path}/d/${files.intro}`))).toBe(true);
      await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: share.id } } }));
      expect((await visitor.get(`${path}/d/${files.intro}`)).status).toBe(410);
      expect((await visitor.get(path)).status).toBe(410);
    });

    it('an agreement added during an admitted visit is asked before its next document, which then counts anew', async () => {
      const { share, url } = await shareFolder(alice, handbook);
      const path = new URL(url).pathname;
      const visitor = new HttpVisitor(app.baseUrl, CHROME);
      expect((await visitor.get(path)).status).toBe(200);
      expect(isDocument(await visitor.get(`${path}/d/${files.intro}`))).toBe(true);
      await unwrap(
        alice.api.PATCH('/api/v1/shares/{id}', {
          params: { path: { id: share.id } },
          body: { agreement: { text: 'Keep it **confidential**.' } },
        }),
      );
      const asked = await visitor.get(`${path}/d/${files.intro}`);
      expect(asked.status).toBe(200);
      expect(isDocument(asked)).toBe(false);
      expect(asked.body).toContain('name="accept"');
      expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1 });
    });

    it('trashing the folder revokes its collections and those of the folders below it', async () => {
      const top = await folder(alice, 'Doomed');
      const below = await folder(alice, 'Below', top);
      await put(app, alice, 'doomed.md', '# Doomed\n', below);
      const topShare = await shareFolder(alice, top);
      const belowShare = await shareFolder(alice, below);
      await unwrap(alice.api.DELETE('/api/v1/folders/{id}', { params: { path: { id: top } } }));
      for (const created of [topShare, belowShare]) {
        expect((await getShare(alice, created.share.id)).revokedAt).toEqual(expect.any(String));
        expect((await new HttpVisitor(app.baseUrl, CHROME).get(new URL(created.url).pathname)).status).toBe(410);
      }
    });
  });
});

describe('collection caps across two api replicas', () => {
  const SESSION_SECRET = 'collections-replica-secret-0123456789abcdef';
  const CAP = 5;
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;
  let shelf: string;
  let doc: string;

  beforeAll(async () => {
    first = await startApp({ env: { SESSION_SECRET } });
    second = await startApp({
      env: {
        SESSION_SECRET,
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    alice = await createUser(first.baseUrl);
    shelf = await folder(alice, 'Shelf');
    doc = await put(first, alice, 'chapter.md', '# Chapter\n\nOnly a few may read this.\n', shelf);
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
  });

  it(`maxVisits ${CAP}: of ${3 * CAP} parallel visitors over both replicas exactly ${CAP} are admitted; their documents count nothing`, async () => {
    const { share, url } = await shareFolder(alice, shelf, { maxVisits: CAP });
    const path = new URL(url).pathname;
    const replicas = [first.baseUrl, second.baseUrl];
    const visitors = Array.from({ length: 3 * CAP }, (_, i) => new HttpVisitor(replicas[i % 2]!, `Reader/${i}`));
    const pages = await Promise.all(visitors.map((visitor) => visitor.get(path)));
    const admitted = visitors.filter((_, i) => pages[i]!.status === 200);
    expect(pages.map((page) => page.status).sort()).toEqual([
      ...Array<number>(CAP).fill(200),
      ...Array<number>(2 * CAP).fill(410),
    ]);
    expect(admitted.every((_, i) => listed(pages.filter((page) => page.status === 200)[i]!.body).includes(doc))).toBe(true);

    // Each admitted reader opens the document twice on each replica, all at once.
    const opened = await Promise.all(
      admitted.flatMap((visitor) => [...replicas, ...replicas].map((replica) => visitor.get(`${replica}${path}/d/${doc}`))),
    );
    expect(opened.every((page) => isDocument(page) && page.body.includes('Only a few may read this.'))).toBe(true);
    // The others, holding the link alone, meet the gate: the collection is used up.
    const refused = visitors.filter((visitor) => !admitted.includes(visitor));
    expect((await Promise.all(refused.map((visitor) => visitor.get(`${path}/d/${doc}`)))).map((page) => page.status)).toEqual(
      Array<number>(2 * CAP).fill(410),
    );
    expect(await getShare(alice, share.id)).toMatchObject({
      visitCount: CAP,
      uniqueVisitCount: CAP,
      consumedAt: expect.any(String),
    });
    const reads = await sql<{ n: number }>(first, 'SELECT count(*)::int AS n FROM share_document_reads WHERE share_id = $1', [
      share.id,
    ]);
    expect(reads[0]!.n).toBe(CAP);
  });

  it('a pass re-checks the account: once an administrator disables it, no document request started after the commit shows text, on either replica', async () => {
    const { url } = await shareFolder(alice, shelf, { requireLogin: true });
    const path = new URL(url).pathname;
    const reader = await createUser(first.baseUrl);
    const replicas = [first.baseUrl, second.baseUrl];
    const browser = new HttpVisitor(first.baseUrl, CHROME).withCookie(reader.cookie);
    expect((await browser.get(path)).status).toBe(200);
    for (const replica of replicas) expect(isDocument(await browser.get(`${replica}${path}/d/${doc}`))).toBe(true);

    const read = async (i: number) => {
      const startedAt = performance.now();
      const page = await browser.get(`${replicas[i % 2]}${path}/d/${doc}`);
      return { startedAt, status: page.status, shown: page.body.includes('Only a few may read this.') };
    };
    let committedAt = Number.POSITIVE_INFINITY;
    const disabled = unwrap(
      alice.console.PATCH('/api/admin/users/{id}', { params: { path: { id: reader.userId } }, body: { disabled: true } }),
    ).then(() => (committedAt = performance.now()));
    // Half of them race the disabling; the other half start once it has answered (after its commit).
    const during = Array.from({ length: 15 }, (_, i) => read(i));
    await disabled;
    const after = await Promise.all(Array.from({ length: 15 }, (_, i) => read(i)));
    const raced = await Promise.all(during);
    const late = [...raced.filter((result) => result.startedAt > committedAt), ...after];
    expect(late.length).toBeGreaterThanOrEqual(15);
    expect(late.filter((result) => result.shown)).toEqual([]);
    expect(late.map((result) => result.status)).toEqual(Array<number>(late.length).fill(401));
    // The list too meets the gate again.
    for (const replica of replicas) expect((await browser.get(`${replica}${path}`)).status).toBe(401);
  });

  it('a pass re-checks the sign-in: after the reader signs out, the list and documents ask for it again on either replica', async () => {
    const { share, url } = await shareFolder(alice, shelf, { requireLogin: true });
    const path = new URL(url).pathname;
    const reader = await createUser(first.baseUrl);
    const browser = new HttpVisitor(first.baseUrl, CHROME).withCookie(reader.cookie);
    expect((await browser.get(path)).status).toBe(200);
    expect(isDocument(await browser.get(`${second.baseUrl}${path}/d/${doc}`))).toBe(true);
    const out = await fetch(`${second.baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie: reader.cookie } });
    expect(out.status).toBeLessThan(300);
    for (const replica of [first.baseUrl, second.baseUrl]) {
      const asked = await browser.get(`${replica}${path}/d/${doc}`);
      expect(asked.status).toBe(401);
      expect(asked.body).not.toContain('Only a few may read this.');
      expect((await browser.get(`${replica}${path}`)).status).toBe(401);
    }
    expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1 });
  });

  it('a new password locks out the old one: the next request asks again, for a single link and inside a pass, on either replica', async () => {
    const single = await unwrap(alice.api.POST('/api/v1/shares', { body: { fileId: doc, password: 'first secret' } }));
    const collection = await shareFolder(alice, shelf, { password: 'first secret' });
    const singlePath = new URL(single.url).pathname;
    const path = new URL(collection.url).pathname;
    const browser = new HttpVisitor(first.baseUrl, CHROME);
    expect((await browser.post(singlePath, { action: 'password', password: 'first secret' })).status).toBe(303);
    expect((await browser.post(path, { action: 'password', password: 'first secret' })).status).toBe(303);
    expect((await browser.get(path)).status).toBe(200);
    const replicas = [first.baseUrl, second.baseUrl];
    for (const replica of replicas) {
      expect(isDocument(await browser.get(`${replica}${singlePath}`))).toBe(true);
      expect(isDocument(await browser.get(`${replica}${path}/d/${doc}`))).toBe(true);
    }
    for (const id of [single.share.id, collection.share.id]) {
      await unwrap(alice.api.PATCH('/api/v1/shares/{id}', { params: { path: { id } }, body: { password: 'second secret' } }));
    }
    // The replica that made the change, at once; the other within the change feed's second (its
    // gate row of the single link); the collection's pass is judged against the database's row.
    expect((await browser.get(`${first.baseUrl}${singlePath}`)).status).toBe(401);
    await followsWithin(OTHER_PROCESS_MS, async () => (await browser.get(`${second.baseUrl}${singlePath}`)).status === 401);
    for (const replica of replicas) {
      const asked = await browser.get(`${replica}${path}/d/${doc}`);
      expect(asked.status).toBe(401);
      expect(asked.body).not.toContain('Only a few may read this.');
      expect((await browser.get(`${replica}${path}`)).status).toBe(401);
    }
    // The new password opens both again; the old one no longer does.
    expect((await browser.post(singlePath, { action: 'password', password: 'first secret' })).status).toBe(401);
    expect((await browser.post(singlePath, { action: 'password', password: 'second secret' })).status).toBe(303);
    expect(isDocument(await browser.get(`${second.baseUrl}${singlePath}`))).toBe(true);
  });

  it('a one-time collection: of 20 parallel reveals over both replicas exactly one opens it', async () => {
    const { share, url } = await shareFolder(alice, shelf, { oneTime: true });
    const path = new URL(url).pathname;
    const replicas = [first.baseUrl, second.baseUrl];
    const visitors = Array.from({ length: 20 }, (_, i) => new HttpVisitor(replicas[i % 2]!, `Revealer/${i}`));
    const pages = await Promise.all(visitors.map((visitor) => visitor.post(path, { action: 'reveal' })));
    expect(pages.map((page) => page.status).sort()).toEqual([200, ...Array<number>(19).fill(410)]);
    const winner = visitors[pages.findIndex((page) => page.status === 200)]!;
    const documents = await Promise.all(replicas.map((replica) => winner.get(`${replica}${path}/d/${doc}`)));
    expect(documents.every(isDocument)).toBe(true);
    expect(await getShare(alice, share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
  });
});

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('collections through the MCP tool server and the CLI', () => {
  let app: RunningApp;
  let alice: TestUser;
  let shelf: string;
  let fileId: string;
  let mcp: Connected;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    shelf = await folder(alice, 'Doors');
    fileId = await put(app, alice, 'door.md', '# Door\n', shelf);
    mcp = await connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
    // Listing first makes the SDK client check every structuredContent against the declared output schemas.
    await mcp.client.listTools();
    home = await mkdtemp(join(tmpdir(), 'sharedown-collections-'));
    env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'xdg'),
      PATH: process.env.PATH ?? '',
      SHAREDOWN_URL: app.baseUrl,
      SHAREDOWN_TOKEN: alice.token,
    };
  });
  afterAll(async () => {
    await mcp?.close();
    if (home) await rm(home, { recursive: true, force: true });
    await app?.cleanup();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;

  it('service_share_folder shares a folder; service_list_shares filters by folderId; service_share takes no folderId', async () => {
    const created = await call('service_share_folder', { folderId: shelf, options: { maxVisits: 3 } });
    expect(created.isError).toBeFalsy();
    const { share, url } = created.structuredContent as Created;
    expect(share).toMatchObject({ folderId: shelf, folderName: expect.stringMatching(/^Doors \d+$/), maxVisits: 3 });
    expect(share).not.toHaveProperty('fileId');
    expect(listed((await new HttpVisitor(app.baseUrl, CHROME).get(new URL(url).pathname)).body)).toEqual([fileId]);

    const filtered = await call('service_list_shares', { folderId: shelf });
    expect((filtered.structuredContent as { shares: Share[] }).shares.map((item) => item.id)).toEqual([share.id]);

    // The spec's service_share shares a file: a folderId is no argument of it, and no folder is shared.
    const folderless = await call('service_share', { folderId: shelf });
    expect(folderless.isError).toBe(true);
    expect((folderless.content.find((part) => part.type === 'text') as { text: string }).text).toMatch(
      /Input validation error[\s\S]*fileId/,
    );
    // A collection is never pinned to a version: the folder tool does not take the option at all.
    const pinned = await call('service_share_folder', { folderId: shelf, options: { lockedVersionId: 'v1' } });
    expect(pinned.isError).toBe(true);
    expect((pinned.content.find((part) => part.type === 'text') as { text: string }).text).toContain('lockedVersionId');
    const after = await call('service_list_shares', { folderId: shelf });
    expect((after.structuredContent as { shares: Share[] }).shares.map((item) => item.id)).toEqual([share.id]);
  });

  it('sharedown shares create --folder shares a folder, and shares ls --folder lists it', async () => {
    const help = await runCli(['shares', 'create', '--help'], env);
    expect(help.stdout).toContain('--folder <id>');
    const created = await runCli(['shares', 'create', '--folder', shelf, '--one-time', '--json'], env);
    expect(created.code).toBe(0);
    const { share } = JSON.parse(created.stdout) as Created;
    expect(share).toMatchObject({ folderId: shelf, oneTime: true, maxVisits: 1 });
    const list = await runCli(['shares', 'ls', '--folder', shelf, '--json'], env);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { shares: Share[] }).shares[0]!.id).toBe(share.id);
    const neither = await runCli(['shares', 'create', '--json'], env);
    expect(neither.code).not.toBe(0);
    expect(neither.stdout).toBe('');
    const both = await runCli(['shares', 'create', fileId, '--folder', shelf, '--json'], env);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/VALIDATION/);
  });
});
