import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { share, sql, upload } from '../support/browser.js';
import { EICAR } from '../support/clamd.js';

const run = promisify(execFile);
const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

/** An account's own export (GET /api/v1/export, the console's twin, `sharedown export`). */
describe('export of an account', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let work: string;
  let reportId: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'sharedown-export-'));
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    const { folder } = await unwrap(alice.console.POST('/api/console/folders', { body: { name: 'Reports' } }));
    const report = await upload(app, alice, 'q3.md', '# Q3 draft\n');
    reportId = report.fileId;
    await unwrap(
      alice.console.PATCH('/api/console/files/{id}', { params: { path: { id: reportId } }, body: { folderId: folder.id } }),
    );
    await sql(
      app,
      `WITH v AS (INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
         VALUES ($1, 2, '# Q3 final', 10, 'x', 'CLEAN') RETURNING id)
       UPDATE files SET current_version_id = (SELECT id FROM v) WHERE id = $1`,
      [reportId],
    );
    await share(alice, reportId, { password: 'never-in-the-zip', slug: `q3-${Date.now()}` });
    const old = await upload(app, alice, 'old.txt', 'old notes');
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: old.fileId } } }));
    await upload(app, alice, '../../evil.html', '<p>fine</p>').catch(() => undefined);
    await upload(app, alice, 'virus.txt', EICAR, undefined, 'INFECTED');
    await upload(app, bob, 'bob.md', '# Bob only\n');
    // Look-alike slashes that some unzip tools fold into real separators.
    await unwrap(alice.console.POST('/api/console/folders', { body: { name: '..\uff0f..\u2215up' } }));
    await upload(app, alice, '..\uff3c..\u29f5lookalike.md', '# look-alike\n').catch(() => undefined);
  });
  afterAll(async () => {
    await app?.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  async function download(headers: Record<string, string>, path = '/api/v1/export') {
    const response = await fetch(`${app.baseUrl}${path}`, { headers });
    return { response, body: new Uint8Array(await response.arrayBuffer()) };
  }

  it('answers a zip of the documents, every version, the trash and the share list, and nothing of anyone else', async () => {
    const { response, body } = await download({ authorization: `Bearer ${alice.token}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sharedown-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const files = unzipSync(body);
    const text = (name: string) => strFromU8(files[name]!);
    expect(text('documents/Reports/q3.md')).toBe('# Q3 final');
    expect(text('versions/Reports/q3.md/v1.md')).toBe('# Q3 draft\n');
    expect(text('versions/Reports/q3.md/v2.md')).toBe('# Q3 final');
    expect(text('trash/old.txt')).toBe('old notes');
    expect(Object.keys(files).some((name) => name.includes('virus'))).toBe(false);
    expect(Object.keys(files).every((name) => !name.split('/').includes('..'))).toBe(true);
    expect(Object.keys(files).filter((name) => /[\uff0f\uff3c\u2215\u29f5]/.test(name))).toEqual([]);
    expect(Object.values(files).some((content) => strFromU8(content).includes('Bob only'))).toBe(false);

    const manifest = JSON.parse(text('manifest.json'));
    expect(manifest).toMatchObject({ format: 'sharedown-export', version: 1, account: { id: alice.userId, email: alice.email } });
    const virus = manifest.files.find((file: { name: string }) => file.name === 'virus.txt');
    expect(virus.versions).toEqual([expect.objectContaining({ scanStatus: 'INFECTED', path: null })]);
    const q3 = manifest.files.find((file: { id: string }) => file.id === reportId);
    expect(q3).toMatchObject({ path: 'documents/Reports/q3.md', trashed: false });
    expect(q3.versions.map((version: { versionNo: number; current: boolean }) => [version.versionNo, version.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    const shares = JSON.parse(text('shares.json'));
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({ fileId: reportId, hasPassword: true });
    expect(text('shares.json')).not.toContain('never-in-the-zip');
    expect(text('shares.json')).not.toMatch(/argon2/);
  });

  it('is offered on the console session too, never to a token there, and to nobody signed out', async () => {
    const consoleExport = await download({ cookie: alice.cookie }, '/api/console/export');
    expect(consoleExport.response.status).toBe(200);
    expect(strFromU8(unzipSync(consoleExport.body)['documents/Reports/q3.md']!)).toBe('# Q3 final');
    expect((await download({ authorization: `Bearer ${alice.token}` }, '/api/console/export')).response.status).toBe(403);
    expect((await download({})).response.status).toBe(401);
  });

  it('writes the zip with `sharedown export`, refusing to overwrite without --force', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: work, SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: bob.token };
    const out = join(work, 'bob.zip');
    const first = await run(process.execPath, [CLI_BIN, 'export', '--out', out, '--json'], { env, cwd: work });
    expect(JSON.parse(first.stdout)).toMatchObject({ file: out, bytes: expect.any(Number) });
    expect(strFromU8(unzipSync(await readFile(out))['documents/bob.md']!)).toBe('# Bob only\n');
    const again = await run(process.execPath, [CLI_BIN, 'export', '--out', out], { env, cwd: work }).catch((error) => error);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    await run(process.execPath, [CLI_BIN, 'export', '--out', out, '--force'], { env, cwd: work });
  });

  it('allows six exports an hour per account: the seventh gets 429 with Retry-After', async () => {
    // Alice has used two (the token's and the console's).
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => download({ authorization: `Bearer ${alice.token}` }).then(({ response }) => response)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
