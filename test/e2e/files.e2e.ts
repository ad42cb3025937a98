import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { EICAR } from '../support/clamd.js';
import { documentForm, sql, uploadFile, waitForScan } from '../support/uploads.js';

const MB = 1024 * 1024;
let app: RunningApp;
let alice: TestUser;
let bob: TestUser;
let databaseUrl: string;

beforeAll(async () => {
  app = await startApp();
  [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
  databaseUrl = await app.databaseUrl();
});

afterAll(async () => {
  await app?.cleanup();
});

async function usedBytes(user: TestUser): Promise<number> {
  const { data } = await user.api.GET('/api/v1/me');
  return data!.user.usedBytes;
}

async function setQuota(user: TestUser, quotaBytes: number): Promise<void> {
  await sql(databaseUrl, `UPDATE users SET quota_bytes = $2 WHERE id = $1`, [user.userId, quotaBytes]);
}

describe('POST /files', () => {
  it('stores a document and answers the File fields of the contract', async () => {
    const before = await usedBytes(alice);
    const content = '# Notes\n\nhello 世界\n';
    const { data, response } = await uploadFile(alice.api, 'notes.md', content);
    expect(response.status).toBe(200);
    const file = data!.file;
    expect(Object.keys(file).sort()).toEqual(
      ['createdAt', 'folderId', 'id', 'kind', 'name', 'scanResult', 'scanStatus', 'shareCount', 'sizeBytes'].sort(),
    );
    expect(file).toMatchObject({
      name: 'notes.md',
      kind: 'MARKDOWN',
      sizeBytes: Buffer.byteLength(content),
      folderId: null,
      shareCount: 0,
      scanResult: null,
    });
    expect(['PENDING', 'CLEAN']).toContain(file.scanStatus);
    expect(new Date(file.createdAt).toISOString()).toBe(file.createdAt);
    expect(await usedBytes(alice)).toBe(before + Buffer.byteLength(content));
    expect((await waitForScan(alice.console, file.id)).scanStatus).toBe('CLEAN');
  });

  it('keeps the uploaded bytes as they are (BOM, CRLF, tabs)', async () => {
    const content = '\uFEFFa\tb  \r\nc\r\n';
    const { data } = await uploadFile(alice.api, 'raw.txt', content);
    const rows = await sql<{ content: string; sha256: string }>(
      databaseUrl,
      `SELECT v.content, v.sha256 FROM file_versions v JOIN files f ON f.current_version_id = v.id WHERE f.id = $1`,
      [data!.file.id],
    );
    expect(rows[0]!.content).toBe(content);
    expect(data!.file.sizeBytes).toBe(Buffer.byteLength(content));
  });

  it('derives the kind from the extension, case-insensitively, for every accepted extension', async () => {
    const cases: Array<[string, string]> = [
      ['page.html', 'HTML'],
      ['PAGE2.HTM', 'HTML'],
      ['readme.Markdown', 'MARKDOWN'],
      ['a.md', 'MARKDOWN'],
      ['plain.txt', 'TEXT'],
      ['plain.TEXT', 'TEXT'],
    ];
    for (const [name, kind] of cases) {
      const { data, response } = await uploadFile(alice.api, name, 'x');
      expect(response.status, name).toBe(200);
      expect(data!.file.kind, name).toBe(kind);
    }
  });

  it('refuses other extensions, bad names, missing parts and non-UTF-8 content with 400 VALIDATION', async () => {
    const bad: Array<[string, string | Uint8Array]> = [
      ['archive.zip', 'PK'],
      ['movie.mp4', 'x'],
      ['tool.exe', 'MZ'],
      ['noextension', 'x'],
      ['.md', 'x'],
      ['dir/inner.md', 'x'],
      ['dir\\inner.md', 'x'],
      ['tab\tname.md', 'x'],
      ['bell\u0007.md', 'x'],
      ['latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9])],
      ['truncated.txt', new Uint8Array([0xe4, 0xb8])],
      ['nul.txt', 'a\u0000b'],
    ];
    for (const [name, content] of bad) {
      const { error, response } = await uploadFile(alice.api, name, content);
      expect(response.status, name).toBe(400);
      expect(error, name).toMatchObject({ code: 'VALIDATION' });
    }
    const form = new FormData();
    form.append('folderId', '');
    const missing = await alice.api.POST('/api/v1/files', { body: form as never });
    expect(missing.response.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'VALIDATION' });
    const notMultipart = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x.md' }),
    });
    expect(notMultipart.status).toBe(400);
    expect(await notMultipart.json()).toMatchObject({ code: 'VALIDATION' });
    const unknownField = await alice.api.POST('/api/v1/files', {
      body: documentForm('field.md', 'x', { colour: 'blue' }) as never,
    });
    expect(unknownField.response.status).toBe(400);
    const twoFiles = documentForm('one.md', 'x');
    twoFiles.append('file', new Blob(['y']), 'two.md');
    const second = await alice.api.POST('/api/v1/files', { body: twoFiles as never });
    expect(second.response.status).toBe(400);
    expect(second.error).toMatchObject({ code: 'VALIDATION' });
    const textInsteadOfFile = new FormData();
    textInsteadOfFile.append('file', '# not a file part');
    const text = await alice.api.POST('/api/v1/files', { body: textInsteadOfFile as never });
    expect(text.response.status).toBe(400);
    const names = (await alice.api.GET('/api/v1/files')).data!.files.map((file) => file.name);
    expect(names).not.toContain('one.md');
    expect(names).not.toContain('two.md');
  });

  it('accepts a file part that comes before the other fields', async () => {
    const folder = await alice.console.POST('/api/console/folders', { body: { name: 'ordered' } });
    const form = documentForm('after.md', 'x', { folderId: folder.data!.folder.id }, true);
    const { data, response } = await alice.api.POST('/api/v1/files', { body: form as never });
    expect(response.status).toBe(200);
    expect(data!.file.folderId).toBe(folder.data!.folder.id);
  });

  it('answers 413 OVER_QUOTA above 10 MB and stores nothing; exactly 10 MB is accepted', async () => {
    const before = await usedBytes(bob);
    const tooBig = await uploadFile(bob.api, 'big.txt', 'a'.repeat(10 * MB + 1));
    expect(tooBig.response.status).toBe(413);
    expect(tooBig.error).toMatchObject({ code: 'OVER_QUOTA' });
    expect(await usedBytes(bob)).toBe(before);
    const rows = await sql(databaseUrl, `SELECT 1 FROM files WHERE user_id = $1 AND name = 'big.txt'`, [bob.userId]);
    expect(rows).toHaveLength(0);

    const exact = await uploadFile(bob.api, 'exact.txt', 'b'.repeat(10 * MB));
    expect(exact.response.status).toBe(200);
    expect(exact.data!.file.sizeBytes).toBe(10 * MB);
    expect(await usedBytes(bob)).toBe(before + 10 * MB);
  });

  it('answers 413 OVER_QUOTA past the quota and keeps usedBytes exact under parallel uploads', async () => {
    const user = await createUser(app.baseUrl);
    const size = 1000;
    await setQuota(user, size * 12 + 500);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => uploadFile(user.api, `part-${index}.txt`, 'q'.repeat(size))),
    );
    const statuses = results.map((result) => result.response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 413)).toHaveLength(8);
    for (const result of results.filter((r) => r.response.status === 413))
      expect(result.error).toMatchObject({ code: 'OVER_QUOTA' });
    expect(await usedBytes(user)).toBe(size * 12);
    const [{ total }] = await sql<{ total: string }>(
      databaseUrl,
      `SELECT coalesce(sum(v.size_bytes), 0) AS total FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = $1`,
      [user.userId],
    );
    expect(Number(total)).toBe(size * 12);
  });

  it('answers 409 DUPLICATE for a taken name in the same folder, also under parallel uploads', async () => {
    const user = await createUser(app.baseUrl);
    const results = await Promise.all(Array.from({ length: 8 }, () => uploadFile(user.api, 'same.md', 'x')));
    expect(results.filter((result) => result.response.status === 200)).toHaveLength(1);
    for (const result of results.filter((r) => r.response.status !== 200)) {
      expect(result.response.status).toBe(409);
      expect(result.error).toMatchObject({ code: 'DUPLICATE' });
    }
    expect(await usedBytes(user)).toBe(1);
    const again = await uploadFile(user.api, 'same.md', 'y');
    expect(again.error).toMatchObject({ code: 'DUPLICATE' });
    // Names are per folder: the same name elsewhere is fine.
    const folder = await user.console.POST('/api/console/folders', { body: { name: 'elsewhere' } });
    const elsewhere = await uploadFile(user.api, 'same.md', 'z', { folderId: folder.data!.folder.id });
    expect(elsewhere.response.status).toBe(200);
  });

  it('quarantines EICAR (builtin scanner) and answers 409 INFECTED to an upload over it', async () => {
    const { data } = await uploadFile(alice.api, 'eicar.txt', EICAR);
    const scanned = await waitForScan(alice.console, data!.file.id);
    expect(scanned).toMatchObject({ scanStatus: 'INFECTED', scanResult: 'Eicar-Test-Signature' });
    const over = await uploadFile(alice.api, 'eicar.txt', 'harmless now');
    expect(over.response.status).toBe(409);
    expect(over.error).toMatchObject({ code: 'INFECTED' });
    const listed = await alice.api.GET('/api/v1/files/{id}', { params: { path: { id: data!.file.id } } });
    expect(listed.data).toMatchObject({ scanStatus: 'INFECTED', scanResult: 'Eicar-Test-Signature' });
  });

  it('answers 404 for an unknown or foreign folderId', async () => {
    const foreign = await bob.console.POST('/api/console/folders', { body: { name: 'bobs' } });
    for (const folderId of [foreign.data!.folder.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const { error, response } = await uploadFile(alice.api, 'where.md', 'x', { folderId });
      expect(response.status, folderId).toBe(404);
      expect(error).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('needs a valid bearer token', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    const { response, error } = await anonymous.POST('/api/v1/files', { body: documentForm('a.md', 'x') as never });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('GET /files, GET /files/{id}, DELETE /files/{id}', () => {
  it('lists live files, all of them or those of one folder, on both path prefixes', async () => {
    const user = await createUser(app.baseUrl);
    const folder = (await user.console.POST('/api/console/folders', { body: { name: 'docs' } })).data!.folder;
    await uploadFile(user.api, 'root.md', 'r');
    const inFolder = (await uploadFile(user.api, 'inner.md', 'i', { folderId: folder.id })).data!.file;

    const all = await user.api.GET('/api/v1/files');
    expect(all.data!.files.map((file) => file.name).sort()).toEqual(['inner.md', 'root.md']);
    const only = await user.api.GET('/api/v1/files', { params: { query: { folderId: folder.id } } });
    expect(only.data!.files.map((file) => file.id)).toEqual([inFolder.id]);
    const legacy = await fetch(`${app.baseUrl}/v1/files?folderId=${folder.id}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect((await legacy.json()).files).toHaveLength(1);
    const foreign = await bob.api.GET('/api/v1/files', { params: { query: { folderId: folder.id } } });
    expect(foreign.response.status).toBe(404);
    expect((await bob.api.GET('/api/v1/files')).data!.files.some((file) => file.id === inFolder.id)).toBe(false);
  });

  it('answers the File object itself for GET and 404 for foreign or missing ids', async () => {
    const { data } = await uploadFile(alice.api, 'get-me.txt', 'content');
    const got = await alice.api.GET('/api/v1/files/{id}', { params: { path: { id: data!.file.id } } });
    expect(got.data).toMatchObject({ id: data!.file.id, name: 'get-me.txt', kind: 'TEXT', sizeBytes: 7 });
    for (const id of [data!.file.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const foreign = await bob.api.GET('/api/v1/files/{id}', { params: { path: { id } } });
      expect(foreign.response.status).toBe(404);
      expect(foreign.error).toMatchObject({ code: 'NOT_FOUND' });
      const deleted = await bob.api.DELETE('/api/v1/files/{id}', { params: { path: { id } } });
      expect(deleted.response.status).toBe(404);
    }
  });

  it('moves a deleted file to the trash, revokes its shares together, frees nothing, and frees the name', async () => {
    const user = await createUser(app.baseUrl);
    const { data } = await uploadFile(user.api, 'gone.md', 'bye');
    const fileId = data!.file.id;
    const shares = await Promise.all(
      [{ fileId }, { fileId, maxVisits: 2 }].map(async (body) => (await user.api.POST('/api/v1/shares', { body })).data!),
    );
    expect((await user.api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } })).data!.shareCount).toBe(2);

    const deleted = await user.api.DELETE('/api/v1/files/{id}', { params: { path: { id: fileId } } });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data).toMatchObject({ file: { id: fileId, shareCount: 0 } });
    for (const { share, url } of shares) {
      const after = await user.api.GET('/api/v1/shares/{id}', { params: { path: { id: share.id } } });
      expect(after.data!.revokedAt).toEqual(expect.any(String));
      const view = await fetch(url, { redirect: 'manual' });
      await view.arrayBuffer();
      expect(view.status).toBe(410);
    }
    expect((await user.api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } })).response.status).toBe(404);
    expect((await user.api.GET('/api/v1/files')).data!.files).toEqual([]);
    expect(await usedBytes(user)).toBe(3);
    expect((await user.api.DELETE('/api/v1/files/{id}', { params: { path: { id: fileId } } })).response.status).toBe(404);
    expect((await uploadFile(user.api, 'gone.md', 'again')).response.status).toBe(200);
  });
});
