import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedownClient } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { EICAR } from '../support/clamd.js';
import { documentForm, sql, uploadFile, waitForScan } from '../support/uploads.js';

let app: RunningApp;
let databaseUrl: string;

beforeAll(async () => {
  app = await startApp();
  databaseUrl = await app.databaseUrl();
});

afterAll(async () => {
  await app?.cleanup();
});

function consoleUpload(client: SharedownClient, name: string, content: string, fields: Record<string, string> = {}) {
  return client.POST('/api/console/files', { body: documentForm(name, content, fields) as never });
}

async function usedBytes(user: TestUser): Promise<number> {
  return (await user.console.GET('/api/auth/session')).data!.user.usedBytes;
}

async function createFolder(user: TestUser, name: string, parentId?: string) {
  const { data, response, error } = await user.console.POST('/api/console/folders', { body: { name, parentId } });
  if (!response.ok) throw new Error(`folder ${name}: ${response.status} ${JSON.stringify(error)}`);
  return data!.folder;
}

describe('console folders', () => {
  it('creates, lists as a tree, renames and moves folders', async () => {
    const user = await createUser(app.baseUrl);
    const projects = await createFolder(user, 'Projects');
    const alpha = await createFolder(user, 'alpha', projects.id);
    const archive = await createFolder(user, 'Archive');
    expect(alpha.parentId).toBe(projects.id);

    const tree = (await user.console.GET('/api/console/folders')).data!.folders;
    expect(tree.map((folder) => folder.name)).toEqual(['Archive', 'Projects']);
    expect(tree[1]!.children.map((folder) => folder.name)).toEqual(['alpha']);

    const renamed = await user.console.PATCH('/api/console/folders/{id}', {
      params: { path: { id: alpha.id } },
      body: { name: 'beta' },
    });
    expect(renamed.data!.folder).toMatchObject({ name: 'beta', parentId: projects.id });
    const moved = await user.console.PATCH('/api/console/folders/{id}', {
      params: { path: { id: alpha.id } },
      body: { parentId: archive.id },
    });
    expect(moved.data!.folder).toMatchObject({ name: 'beta', parentId: archive.id });
    const top = await user.console.PATCH('/api/console/folders/{id}', {
      params: { path: { id: alpha.id } },
      body: { parentId: null },
    });
    expect(top.data!.folder.parentId).toBeNull();
  });

  it('refuses duplicates, cycles, bad names and foreign parents', async () => {
    const user = await createUser(app.baseUrl);
    const other = await createUser(app.baseUrl);
    const parent = await createFolder(user, 'parent');
    const child = await createFolder(user, 'child', parent.id);
    const duplicate = await user.console.POST('/api/console/folders', { body: { name: 'parent' } });
    expect(duplicate.response.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'DUPLICATE' });
    const cycle = await user.console.PATCH('/api/console/folders/{id}', {
      params: { path: { id: parent.id } },
      body: { parentId: child.id },
    });
    expect(cycle.response.status).toBe(409);
    expect(cycle.error).toMatchObject({ code: 'CONFLICT' });
    const self = await user.console.PATCH('/api/console/folders/{id}', {
      params: { path: { id: parent.id } },
      body: { parentId: parent.id },
    });
    expect(self.response.status).toBe(409);
    for (const name of ['', 'a/b', '..']) {
      const bad = await user.console.POST('/api/console/folders', { body: { name } });
      expect(bad.response.status, name).toBe(400);
    }
    const foreign = await other.console.POST('/api/console/folders', { body: { name: 'x', parentId: parent.id } });
    expect(foreign.response.status).toBe(404);
    expect(
      (await other.console.DELETE('/api/console/folders/{id}', { params: { path: { id: parent.id } } })).response.status,
    ).toBe(404);
  });
});

describe('console uploads with conflict modes', () => {
  it('fails, overwrites as a new version, or renames to name (n).ext', async () => {
    const user = await createUser(app.baseUrl);
    const first = await consoleUpload(user.console, 'report.md', 'v1');
    expect(first.data).toMatchObject({ outcome: 'created', file: { name: 'report.md', versionNo: 1 } });
    const failed = await consoleUpload(user.console, 'report.md', 'again');
    expect(failed.response.status).toBe(409);
    expect(failed.error).toMatchObject({ code: 'DUPLICATE' });

    const overwritten = await consoleUpload(user.console, 'report.md', 'version two', { conflict: 'overwrite' });
    expect(overwritten.data).toMatchObject({
      outcome: 'overwritten',
      file: { id: first.data!.file.id, versionNo: 2, sizeBytes: 11 },
    });

    const renamed1 = await consoleUpload(user.console, 'report.md', 'r1', { conflict: 'rename' });
    const renamed2 = await consoleUpload(user.console, 'report.md', 'r2', { conflict: 'rename' });
    expect(renamed1.data).toMatchObject({ outcome: 'renamed', file: { name: 'report (1).md' } });
    expect(renamed2.data).toMatchObject({ outcome: 'renamed', file: { name: 'report (2).md' } });
    const fresh = await consoleUpload(user.console, 'fresh.md', 'x', { conflict: 'rename' });
    expect(fresh.data).toMatchObject({ outcome: 'created', file: { name: 'fresh.md' } });

    expect(await usedBytes(user)).toBe(2 + 11 + 2 + 2 + 1);
    const bad = await consoleUpload(user.console, 'x.md', 'x', { conflict: 'replace' });
    expect(bad.response.status).toBe(400);
  });

  it('gives unique names to parallel renaming uploads', async () => {
    const user = await createUser(app.baseUrl);
    await consoleUpload(user.console, 'notes.txt', 'base');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => consoleUpload(user.console, 'notes.txt', 'copy', { conflict: 'rename' })),
    );
    const names = results.map((result) => result.data!.file.name).sort();
    expect(new Set(names).size).toBe(6);
    expect(names).toContain('notes (1).txt');
  });

  it('refuses to overwrite a quarantined file (409 INFECTED) but may rename beside it', async () => {
    const user = await createUser(app.baseUrl);
    const infected = await consoleUpload(user.console, 'bad.txt', EICAR);
    expect((await waitForScan(user.console, infected.data!.file.id)).scanStatus).toBe('INFECTED');
    for (const conflict of ['fail', 'overwrite']) {
      const over = await consoleUpload(user.console, 'bad.txt', 'clean', { conflict });
      expect(over.response.status, conflict).toBe(409);
      expect(over.error).toMatchObject({ code: 'INFECTED' });
    }
    const beside = await consoleUpload(user.console, 'bad.txt', 'clean', { conflict: 'rename' });
    expect(beside.data!.file.name).toBe('bad (1).txt');
    const preview = await user.console.GET('/api/console/files/{id}/content', {
      params: { path: { id: infected.data!.file.id } },
    });
    expect(preview.response.status).toBe(409);
    expect(preview.error).toMatchObject({ code: 'INFECTED' });
  });
});

describe('console versions', () => {
  it('uploads, lists and restores versions, scanning each', async () => {
    const user = await createUser(app.baseUrl);
    const { data } = await uploadFile(user.api, 'doc.md', 'one');
    const fileId = data!.file.id;
    const v2 = await user.console.POST('/api/console/files/{id}/versions', {
      params: { path: { id: fileId } },
      body: documentForm('doc.md', 'second') as never,
    });
    expect(v2.data).toMatchObject({ file: { versionNo: 2, sizeBytes: 6 }, version: { versionNo: 2, current: true } });
    await waitForScan(user.console, fileId);

    const listed = (await user.console.GET('/api/console/files/{id}/versions', { params: { path: { id: fileId } } })).data!
      .versions;
    expect(listed.map((version) => [version.versionNo, version.sizeBytes, version.current])).toEqual([
      [2, 6, true],
      [1, 3, false],
    ]);
    expect(listed[1]!.scanStatus).toBe('CLEAN');
    expect(new Date(listed[0]!.createdAt).getTime()).toBeGreaterThan(0);

    const restored = await user.console.POST('/api/console/files/{id}/versions/{versionId}/restore', {
      params: { path: { id: fileId, versionId: listed[1]!.id } },
    });
    expect(restored.data).toMatchObject({ file: { versionNo: 3, sizeBytes: 3 }, version: { versionNo: 3, current: true } });
    const content = await user.console.GET('/api/console/files/{id}/content', { params: { path: { id: fileId } } });
    expect(content.data).toMatchObject({ content: 'one', versionNo: 3, kind: 'MARKDOWN' });
    const old = await user.console.GET('/api/console/files/{id}/content', {
      params: { path: { id: fileId }, query: { versionId: v2.data!.version.id } },
    });
    expect(old.data!.content).toBe('second');
    expect(await usedBytes(user)).toBe(3 + 6 + 3);
    // The REST view follows the current version.
    expect((await user.api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } })).data!.sizeBytes).toBe(3);
  });

  it('refuses a version of another kind, a foreign file and an unknown version', async () => {
    const user = await createUser(app.baseUrl);
    const other = await createUser(app.baseUrl);
    const fileId = (await uploadFile(user.api, 'page.html', '<p>x</p>')).data!.file.id;
    const wrongKind = await user.console.POST('/api/console/files/{id}/versions', {
      params: { path: { id: fileId } },
      body: documentForm('page.md', '# x') as never,
    });
    expect(wrongKind.response.status).toBe(400);
    const foreign = await other.console.POST('/api/console/files/{id}/versions', {
      params: { path: { id: fileId } },
      body: documentForm('page.html', 'x') as never,
    });
    expect(foreign.response.status).toBe(404);
    const unknown = await user.console.POST('/api/console/files/{id}/versions/{versionId}/restore', {
      params: { path: { id: fileId, versionId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(unknown.response.status).toBe(404);
  });
});

describe('console listing and search', () => {
  it('pages and searches the live files, by folder or everywhere', async () => {
    const user = await createUser(app.baseUrl);
    const folder = await createFolder(user, 'inbox');
    for (let index = 0; index < 7; index++) await uploadFile(user.api, `note-${index}.txt`, 'n');
    await uploadFile(user.api, 'Budget_100%.md', 'b', { folderId: folder.id });

    const page1 = await user.console.GET('/api/console/files', { params: { query: { pageSize: '3' } } });
    expect(page1.data).toMatchObject({ total: 8, page: 1, pageSize: 3 });
    expect(page1.data!.files.map((file) => file.name)).toEqual(['Budget_100%.md', 'note-0.txt', 'note-1.txt']);
    const page3 = await user.console.GET('/api/console/files', { params: { query: { pageSize: '3', page: '3' } } });
    expect(page3.data!.files.map((file) => file.name)).toEqual(['note-5.txt', 'note-6.txt']);

    const search = await user.console.GET('/api/console/files', { params: { query: { q: 'NOTE-1' } } });
    expect(search.data!.files.map((file) => file.name)).toEqual(['note-1.txt']);
    const literal = await user.console.GET('/api/console/files', { params: { query: { q: '_100%' } } });
    expect(literal.data!.total).toBe(1);
    const inFolder = await user.console.GET('/api/console/files', { params: { query: { folderId: folder.id } } });
    expect(inFolder.data!.files.map((file) => file.name)).toEqual(['Budget_100%.md']);
    const root = await user.console.GET('/api/console/files', { params: { query: { folderId: 'root' } } });
    expect(root.data!.total).toBe(7);
    const badPage = await user.console.GET('/api/console/files', { params: { query: { page: '0' } } });
    expect(badPage.response.status).toBe(400);
  });

  it('renames and moves a file, keeping its kind', async () => {
    const user = await createUser(app.baseUrl);
    const folder = await createFolder(user, 'dest');
    const fileId = (await uploadFile(user.api, 'a.md', 'x')).data!.file.id;
    await uploadFile(user.api, 'taken.md', 'y', { folderId: folder.id });
    const renamed = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: fileId } },
      body: { name: 'b.markdown' },
    });
    expect(renamed.data!.file.name).toBe('b.markdown');
    const kindChange = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: fileId } },
      body: { name: 'b.html' },
    });
    expect(kindChange.response.status).toBe(400);
    const moved = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: fileId } },
      body: { folderId: folder.id },
    });
    expect(moved.data!.file.folderId).toBe(folder.id);
    const clash = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: fileId } },
      body: { name: 'taken.md' },
    });
    expect(clash.error).toMatchObject({ code: 'DUPLICATE' });
  });
});

describe('console trash', () => {
  it('restores a file into its folder, renaming it when the name was taken', async () => {
    const user = await createUser(app.baseUrl);
    const folder = await createFolder(user, 'docs');
    const fileId = (await uploadFile(user.api, 'report.md', 'old', { folderId: folder.id })).data!.file.id;
    await user.api.DELETE('/api/v1/files/{id}', { params: { path: { id: fileId } } });
    await uploadFile(user.api, 'report.md', 'new', { folderId: folder.id });

    const trash = (await user.console.GET('/api/console/trash')).data!;
    expect(trash.files.map((file) => file.id)).toEqual([fileId]);
    expect(trash.files[0]!.deletedAt).toBeTruthy();
    const restored = await user.console.POST('/api/console/trash/files/{id}/restore', { params: { path: { id: fileId } } });
    expect(restored.data).toMatchObject({ renamed: true, file: { id: fileId, name: 'report (1).md', folderId: folder.id } });
    expect((await user.console.GET('/api/console/trash')).data!.files).toEqual([]);
    const again = await user.console.POST('/api/console/trash/files/{id}/restore', { params: { path: { id: fileId } } });
    expect(again.response.status).toBe(404);
  });

  it('trashes a folder with its content and shares, and restores them together', async () => {
    const user = await createUser(app.baseUrl);
    const top = await createFolder(user, 'top');
    const inner = await createFolder(user, 'inner', top.id);
    const a = (await uploadFile(user.api, 'a.md', 'a', { folderId: top.id })).data!.file.id;
    const b = (await uploadFile(user.api, 'b.md', 'b', { folderId: inner.id })).data!.file.id;
    await sql(databaseUrl, `INSERT INTO shares (user_id, file_id, token) VALUES ($1, $2, $3)`, [user.userId, b, `t-${b}`]);

    const deleted = await user.console.DELETE('/api/console/folders/{id}', { params: { path: { id: top.id } } });
    expect(deleted.response.status).toBe(200);
    expect((await user.api.GET('/api/v1/files')).data!.files).toEqual([]);
    expect((await user.console.GET('/api/console/folders')).data!.folders).toEqual([]);
    const [share] = await sql<{ revoked_at: Date | null }>(databaseUrl, `SELECT revoked_at FROM shares WHERE file_id = $1`, [b]);
    expect(share!.revoked_at).not.toBeNull();
    const trash = (await user.console.GET('/api/console/trash')).data!;
    expect(trash.folders.map((folder) => [folder.name, folder.fileCount])).toEqual([['top', 2]]);
    expect(trash.files).toEqual([]);
    expect(await usedBytes(user)).toBe(2);

    await createFolder(user, 'top');
    const restored = await user.console.POST('/api/console/trash/folders/{id}/restore', { params: { path: { id: top.id } } });
    expect(restored.data).toMatchObject({ renamed: true, folder: { name: 'top (1)' } });
    const files = (await user.api.GET('/api/v1/files')).data!.files.map((file) => file.id).sort();
    expect(files).toEqual([a, b].sort());
    const tree = (await user.console.GET('/api/console/folders')).data!.folders;
    expect(tree.find((folder) => folder.id === top.id)!.children.map((folder) => folder.id)).toEqual([inner.id]);
  });

  it('purges files and folders for good and frees the quota', async () => {
    const user = await createUser(app.baseUrl);
    const fileId = (await uploadFile(user.api, 'big.txt', 'x'.repeat(1000))).data!.file.id;
    await user.console.POST('/api/console/files/{id}/versions', {
      params: { path: { id: fileId } },
      body: documentForm('big.txt', 'y'.repeat(500)) as never,
    });
    const folder = await createFolder(user, 'old');
    await uploadFile(user.api, 'inside.md', 'z'.repeat(100), { folderId: folder.id });
    expect(await usedBytes(user)).toBe(1600);

    const live = await user.console.DELETE('/api/console/trash/files/{id}', { params: { path: { id: fileId } } });
    expect(live.response.status).toBe(404);
    await user.api.DELETE('/api/v1/files/{id}', { params: { path: { id: fileId } } });
    expect(await usedBytes(user)).toBe(1600);
    const purged = await user.console.DELETE('/api/console/trash/files/{id}', { params: { path: { id: fileId } } });
    expect(purged.data).toEqual({ purgedFiles: 1, freedBytes: 1500 });
    expect(await usedBytes(user)).toBe(100);
    expect(await sql(databaseUrl, `SELECT 1 FROM file_versions WHERE file_id = $1`, [fileId])).toHaveLength(0);

    await user.console.DELETE('/api/console/folders/{id}', { params: { path: { id: folder.id } } });
    const folderPurge = await user.console.DELETE('/api/console/trash/folders/{id}', { params: { path: { id: folder.id } } });
    expect(folderPurge.data).toEqual({ purgedFiles: 1, freedBytes: 100 });
    expect(await usedBytes(user)).toBe(0);

    await uploadFile(user.api, 'last.md', 'abc');
    const last = (await user.api.GET('/api/v1/files')).data!.files[0]!;
    await user.api.DELETE('/api/v1/files/{id}', { params: { path: { id: last.id } } });
    expect((await user.console.DELETE('/api/console/trash')).data).toEqual({ purgedFiles: 1, freedBytes: 3 });
    expect(await usedBytes(user)).toBe(0);
  });
});

describe('console routes and bearer tokens', () => {
  it('refuses a bearer token with 403 and an anonymous call with 401', async () => {
    const user = await createUser(app.baseUrl);
    const paths = ['/api/console/files', '/api/console/folders', '/api/console/trash'];
    for (const path of paths) {
      const withToken = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${user.token}` } });
      expect(withToken.status, path).toBe(403);
      expect(await withToken.json()).toMatchObject({ code: 'FORBIDDEN' });
      expect((await fetch(`${app.baseUrl}${path}`)).status, path).toBe(401);
    }
    const upload = await user.api.POST('/api/console/files', { body: documentForm('t.md', 'x') as never });
    expect(upload.response.status).toBe(403);
  });

  it('documents the console operations under the console tag', async () => {
    const document = (await (await fetch(`${app.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const consolePaths = Object.keys(document.paths).filter(
      (path) =>
        path.startsWith('/api/console/') && !path.startsWith('/api/console/shares') && !path.startsWith('/api/console/account'),
    );
    expect(consolePaths).toEqual(
      expect.arrayContaining([
        '/api/console/files',
        '/api/console/folders',
        '/api/console/trash',
        '/api/console/files/{id}/versions',
      ]),
    );
    for (const path of consolePaths) {
      for (const operation of Object.values(document.paths[path]!)) {
        if (operation && typeof operation === 'object' && 'tags' in operation) expect(operation.tags, path).toContain('console');
      }
    }
  });
});

describe('names that look alike', () => {
  const NFC = 'caf\u00e9.md';
  const NFD = 'cafe\u0301.md';
  const storedName = async (table: 'files' | 'folders', id: string) =>
    (await sql<{ name: string }>(databaseUrl, `SELECT name FROM ${table} WHERE id = $1`, [id]))[0]!.name;

  it('stores file and folder names in NFC, so the other spelling of a taken name is a duplicate at every door', async () => {
    const user = await createUser(app.baseUrl);
    const first = await uploadFile(user.api, NFC, 'a');
    expect(first.response.status).toBe(200);
    // The same name spelt e + U+0301: through the token route, the console and /v1.
    for (const second of [await uploadFile(user.api, NFD, 'b'), await consoleUpload(user.console, NFD, 'b')]) {
      expect(second.response.status).toBe(409);
      expect(second.error).toMatchObject({ code: 'DUPLICATE' });
    }
    const v1 = await fetch(`${app.baseUrl}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: documentForm(NFD, 'b'),
    });
    expect(v1.status).toBe(409);
    expect(await v1.json()).toMatchObject({ code: 'DUPLICATE' });
    // Stored in NFC whichever spelling came in; a rename onto the other spelling is a duplicate too.
    const other = await uploadFile(user.api, 'Cafe\u0301.md', 'c');
    expect(other.data!.file.name).toBe('Caf\u00e9.md');
    expect(await storedName('files', other.data!.file.id)).toBe('Caf\u00e9.md');
    const rename = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: other.data!.file.id } },
      body: { name: NFD },
    });
    expect(rename.response.status).toBe(409);
    expect(rename.error).toMatchObject({ code: 'DUPLICATE' });
    const renamed = await uploadFile(user.api, NFD, 'd', { folderId: (await createFolder(user, 'x')).id });
    expect(await storedName('files', renamed.data!.file.id)).toBe(NFC);

    const folder = await createFolder(user, 'R\u0065\u0301sum\u0065\u0301s');
    expect(folder.name).toBe('R\u00e9sum\u00e9s');
    expect(await storedName('folders', folder.id)).toBe('R\u00e9sum\u00e9s');
    for (const twin of [
      await user.console.POST('/api/console/folders', { body: { name: 'R\u00e9sum\u00e9s' } }),
      await user.api.POST('/api/v1/folders', { body: { name: 'Re\u0301sume\u0301s' } }),
    ]) {
      expect(twin.response.status).toBe(409);
      expect(twin.error).toMatchObject({ code: 'DUPLICATE' });
    }
  });

  it('refuses names of invisible characters only (U+3164, U+2800, tags, separators) with 400 VALIDATION', async () => {
    const user = await createUser(app.baseUrl);
    for (const name of ['\u3164', '\u3164.md', '\u2800.txt', '\u{E0041}\u{E0042}.md']) {
      const answer = await uploadFile(user.api, name, 'x');
      expect(answer.response.status, JSON.stringify(name)).toBe(400);
      expect(answer.error, JSON.stringify(name)).toMatchObject({ code: 'VALIDATION' });
    }
    for (const name of ['\u3164', '\u2800\u3164', '\u{E0020}']) {
      const answer = await user.api.POST('/api/v1/folders', { body: { name } });
      expect(answer.response.status, JSON.stringify(name)).toBe(400);
      expect(answer.error, JSON.stringify(name)).toMatchObject({ code: 'VALIDATION' });
    }
    const file = (await uploadFile(user.api, 'seen.md', 'x')).data!.file;
    const rename = await user.console.PATCH('/api/console/files/{id}', {
      params: { path: { id: file.id } },
      body: { name: '\u3164.md' },
    });
    expect(rename.response.status).toBe(400);
    expect(rename.error).toMatchObject({ code: 'VALIDATION', error: '文件名不能只由不可见字符组成' });
  });
});
