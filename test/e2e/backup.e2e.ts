import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import {
  backend,
  createMachineDatabase,
  createUser,
  sessionCookieOf,
  startApp,
  type RunningApp,
  type TestUser,
} from '../support/app.js';
import { HttpVisitor, getShare, isDocument, share, sql, upload } from '../support/browser.js';

const run = promisify(execFile);
const BACKUP_CLI = fileURLToPath(new URL('../../apps/api/dist/backup/backup-cli.js', import.meta.url));

/** Runs `npm run backup`/`restore`'s program with only the given environment, as an operator would. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BACKUP_CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** The authenticator's code `offsetSeconds` from now (a used step is never accepted twice, also after a move). */
/** Waits until `user` has `count` notifications (visit notifications are written a moment after the visit). */
async function notifiedOf(user: { console: TestUser['console'] }, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const page = await unwrap(user.console.GET('/api/notifications', { params: { query: {} } }));
    if (page.notifications.length >= count || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A console call acting in a workspace (the console tab's header); the JSON answer. */
async function inWorkspace(
  base: string,
  cookie: string,
  workspaceId: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- several routes' answers, each checked by the test
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      origin: base,
      ...(workspaceId ? { 'x-sharedown-workspace': workspaceId } : {}),
      ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

const totp = (secret: string, offsetSeconds = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/**
 * Moving house: an instance on the embedded database, backed up while stopped, restored into a
 * fresh database on the machine's PostgreSQL, started there — and everything still works.
 */
// It starts its own embedded source and its own machine-database target, so one pass of the suite is enough.
describe.skipIf(backend === 'services')('backup and restore', () => {
  let source: RunningApp;
  let target: RunningApp | undefined;
  let alice: TestUser;
  let bob: TestUser;
  let bobSecret: string;
  let work: string;
  let archive: string;
  let passwordLink: string;
  let passwordShareId: string;
  let plainLink: string;
  let fileId: string;
  let workspaceId: string;
  let workspaceLink: string;
  let workspaceFileId: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'sharedown-backup-'));
    // As root, the embedded PostgreSQL runs as `postgres`, which must reach data directories inside.
    await chmod(work, 0o755);
    archive = join(work, 'instance.sdbackup');
    source = await startApp({ backend: 'embedded' });
    alice = await createUser(source.baseUrl);
    bob = await createUser(source.baseUrl);

    const { folder } = await unwrap(alice.console.POST('/api/console/folders', { body: { name: 'Reports' } }));
    const doc = await upload(source, alice, 'report.md', '# first version\n\nhello from the old house\n');
    fileId = doc.fileId;
    await unwrap(
      alice.console.PATCH('/api/console/files/{id}', { params: { path: { id: fileId } }, body: { folderId: folder.id } }),
    );
    await sql(
      source,
      `WITH v AS (INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
         VALUES ($1, 2, '# second version', 16, 'x', 'CLEAN') RETURNING id)
       UPDATE files SET current_version_id = (SELECT id FROM v) WHERE id = $1`,
      [fileId],
    );
    await sql(source, 'UPDATE users SET used_bytes = used_bytes + 16 WHERE id = $1', [alice.userId]);
    const guarded = await share(alice, fileId, { password: 'moving-day', maxVisits: 10, notify: 'every' });
    passwordLink = guarded.url;
    passwordShareId = guarded.share.id;
    plainLink = (await share(alice, fileId, { lockedVersionId: doc.versionId })).url;
    const visitor = new HttpVisitor(source.baseUrl);
    expect((await visitor.post(new URL(passwordLink).pathname, { action: 'password', password: 'moving-day' })).status).toBe(303);
    expect(isDocument(await visitor.get(new URL(passwordLink).pathname))).toBe(true);
    expect((await notifiedOf(alice, 1)).notifications).toHaveLength(1);
    // A recorded policy change: its table's identity column must survive the move.
    await unwrap(
      alice.console.PATCH('/api/console/shares/{id}', { params: { path: { id: passwordShareId } }, body: { maxVisits: 12 } }),
    );
    await unwrap(alice.console.POST('/api/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['share_visited'] } }));

    // A shared workspace: Bob, a member, made a file and a link in it.
    const team = await inWorkspace(source.baseUrl, alice.cookie, undefined, 'POST', '/api/workspaces', {
      name: 'Movers',
      segment: `movers-${Date.now()}`,
    });
    workspaceId = team.body.workspace.id;
    const invited = await inWorkspace(source.baseUrl, alice.cookie, workspaceId, 'POST', '/api/console/workspace/invitations', {
      email: bob.email,
      role: 'EDITOR',
    });
    const secret = String(invited.body.url).split('/').pop()!;
    expect((await inWorkspace(source.baseUrl, bob.cookie, undefined, 'POST', `/api/invitations/${secret}/accept`)).status).toBe(
      200,
    );
    const form = new FormData();
    form.append('file', new Blob(['# Inventory\n\nboxes: 12\n'], { type: 'text/markdown' }), 'inventory.md');
    const teamFile = await inWorkspace(source.baseUrl, bob.cookie, workspaceId, 'POST', '/api/console/files', form);
    expect(teamFile.status, JSON.stringify(teamFile.body)).toBe(200);
    workspaceFileId = teamFile.body.file.id;
    for (let scan = 0; ; scan += 1) {
      const [version] = await sql<{ scan_status: string }>(
        source,
        'SELECT v.scan_status FROM files f JOIN file_versions v ON v.id = f.current_version_id WHERE f.id = $1',
        [workspaceFileId],
      );
      if (version?.scan_status === 'CLEAN') break;
      if (scan > 300) throw new Error('the workspace file was not scanned');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const teamLink = await inWorkspace(source.baseUrl, bob.cookie, workspaceId, 'POST', '/api/console/shares', {
      fileId: workspaceFileId,
    });
    expect(teamLink.status, JSON.stringify(teamLink.body)).toBe(200);
    workspaceLink = teamLink.body.url;

    const setup = await unwrap(bob.console.POST('/api/auth/2fa/setup'));
    bobSecret = setup.secret;
    await unwrap(bob.console.POST('/api/auth/2fa/enable', { body: { code: await totp(bobSecret) } }));
  });
  afterAll(async () => {
    await Promise.all([source?.cleanup(), target?.cleanup()]);
    await rm(work, { recursive: true, force: true });
  });

  it('backs up a running embedded instance, and again once it is stopped (the command starts the database itself)', async () => {
    const live = await cli(['backup', '--out', join(work, 'live.sdbackup')], { DATA_DIR: source.dataDir });
    expect(live.output).toContain('backup written');
    expect(live.code).toBe(0);
    expect((await source.stop()) ?? 0).toBe(0);

    const stopped = await cli(['backup', '--out', archive], { DATA_DIR: source.dataDir });
    expect(stopped.code, stopped.output).toBe(0);
    // Alice's two versions and the workspace's one; two accounts and the shared workspace's row.
    expect(stopped.output).toMatch(/file_versions\s+3/);
    expect(stopped.output).toMatch(/users\s+3/);
    expect(stopped.output).toMatch(/workspace_members\s+2/);
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    const lines = gunzipSync(await readFile(archive))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'sharedown-backup', version: 1 });
    expect(JSON.parse(lines.at(-1)!)[0]).toBe('end');
    expect(lines.some((line) => line.includes('rate_buckets'))).toBe(false);
  });

  it('refuses a file that is not a backup, a cut-short archive, and restores nothing of either', async () => {
    const databaseUrl = await createMachineDatabase();
    const dataDir = join(work, 'refused');
    const junk = join(work, 'junk.sdbackup');
    await writeFile(junk, gzipSync('{"hello":"world"}\n'));
    const notBackup = await cli(['restore', junk], { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(notBackup.code).toBe(1);
    expect(notBackup.output).toContain('not a Sharedown backup');

    const full = gunzipSync(await readFile(archive))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    const cut = join(work, 'cut.sdbackup');
    await writeFile(cut, gzipSync(`${full.slice(0, -1).join('\n')}\n`));
    const cutShort = await cli(['restore', cut], { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(cutShort.code).toBe(1);
    expect(cutShort.output).toContain('cut short');
    const truncated = join(work, 'truncated.sdbackup');
    const bytes = await readFile(archive);
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = await cli(['restore', truncated], { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(damaged.code).toBe(1);

    const probe = await startApp({ backend: 'services', env: { DATABASE_URL: databaseUrl } });
    try {
      expect(await sql(probe, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 0 }]);
      expect(await sql(probe, 'SELECT count(*)::int AS n FROM files')).toEqual([{ n: 0 }]);
    } finally {
      await probe.cleanup();
    }
  });

  it('restores into a fresh database on the machine PostgreSQL, where links, tokens, passwords and second factors still work', async () => {
    const databaseUrl = await createMachineDatabase();
    const dataDir = join(work, 'new-house');
    const restored = await cli(['restore', archive], { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/shares\s+3/);
    expect(restored.output).toMatch(/workspace_members\s+2/);

    target = await startApp({ backend: 'services', dataDir, env: { DATABASE_URL: databaseUrl } });
    const api = createSharedownClient({ baseUrl: target.baseUrl, headers: { authorization: `Bearer ${alice.token}` } });
    expect((await unwrap(api.GET('/api/v1/me'))).user.id).toBe(alice.userId);

    const anonymous = createSharedownClient({ baseUrl: target.baseUrl });
    const aliceLogin = await anonymous.POST('/api/auth/login', { body: { email: alice.email, password: alice.password } });
    expect(aliceLogin.response.status).toBe(200);
    const aliceConsole = createSharedownClient({
      baseUrl: target.baseUrl,
      headers: { cookie: sessionCookieOf(aliceLogin.response) },
    });
    const notified = await notifiedOf({ console: aliceConsole }, 1);
    expect(notified.notifications.map((n) => [n.kind, n.fileName, n.shareId])).toEqual([['visit', 'report.md', passwordShareId]]);
    const bobFirst = await anonymous.POST('/api/auth/login', { body: { email: bob.email, password: bob.password } });
    expect(bobFirst.response.status).toBe(401);
    const bobSecond = await anonymous.POST('/api/auth/login', {
      body: { email: bob.email, password: bob.password, code: await totp(bobSecret, 30) },
    });
    expect(bobSecond.response.status).toBe(200);

    const path = new URL(passwordLink).pathname;
    const visitor = new HttpVisitor(target.baseUrl);
    expect((await visitor.get(path)).status).toBe(401);
    expect((await visitor.post(path, { action: 'password', password: 'moving-day' })).status).toBe(303);
    const page = await visitor.get(path);
    expect(isDocument(page)).toBe(true);
    expect(page.body).toContain('second version');
    // New rows after the move take identities past the restored ones.
    expect((await notifiedOf({ console: aliceConsole }, 2)).notifications).toHaveLength(2);
    await unwrap(
      aliceConsole.PATCH('/api/console/shares/{id}', { params: { path: { id: passwordShareId } }, body: { maxVisits: 13 } }),
    );
    expect(await sql(target, 'SELECT count(*)::int AS n FROM share_policy_changes', [])).toEqual([{ n: 2 }]);
    const pinned = await new HttpVisitor(target.baseUrl).get(new URL(plainLink).pathname);
    expect(pinned.body).toContain('hello from the old house');

    // The shared workspace, its member and what the member made came along; its link still opens.
    const aliceCookie = sessionCookieOf(aliceLogin.response);
    const members = await inWorkspace(target.baseUrl, aliceCookie, workspaceId, 'GET', '/api/console/workspace/members');
    expect(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [alice.email.toLowerCase(), 'OWNER'],
      [bob.email.toLowerCase(), 'EDITOR'],
    ]);
    const teamFiles = await inWorkspace(target.baseUrl, aliceCookie, workspaceId, 'GET', '/api/console/files');
    expect(teamFiles.body.files.find((f: { id: string }) => f.id === workspaceFileId)?.createdBy).toEqual({
      userId: bob.userId,
      email: bob.email.toLowerCase(),
    });
    expect(
      (await inWorkspace(target.baseUrl, sessionCookieOf(bobSecond.response), workspaceId, 'GET', '/api/console/files')).status,
    ).toBe(200);
    const teamPage = await new HttpVisitor(target.baseUrl).get(new URL(workspaceLink).pathname);
    expect(isDocument(teamPage)).toBe(true);
    expect(teamPage.body).toContain('boxes: 12');

    const moved = await getShare({ ...alice, api } as TestUser, passwordShareId);
    expect(moved.visitCount).toBe(2);
    const file = await unwrap(api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } }));
    expect(file.scanStatus).toBe('CLEAN');
    expect(await sql(target, 'SELECT count(*)::int AS n FROM file_versions WHERE file_id = $1', [fileId])).toEqual([{ n: 2 }]);
    expect(await sql(target, 'SELECT used_bytes::int AS n FROM users WHERE id = $1', [alice.userId])).toEqual(
      await sql(
        target,
        'SELECT sum(v.size_bytes)::int AS n FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = $1',
        [alice.userId],
      ),
    );
    expect(await sql(target, 'SELECT url FROM webhooks WHERE user_id = $1', [alice.userId])).toEqual([
      { url: 'http://127.0.0.1:9/hook' },
    ]);
    const [folder] = await sql<{ name: string }>(
      target,
      'SELECT d.name FROM files f JOIN folders d ON d.id = f.folder_id WHERE f.id = $1',
      [fileId],
    );
    expect(folder!.name).toBe('Reports');
  });

  it('restores the archive of the running instance into a new embedded instance', async () => {
    const dataDir = join(work, 'embedded-house');
    const restored = await cli(['restore', join(work, 'live.sdbackup')], { DATA_DIR: dataDir });
    expect(restored.code, restored.output).toBe(0);
    const house = await startApp({ backend: 'embedded', dataDir });
    try {
      const anonymous = createSharedownClient({ baseUrl: house.baseUrl });
      expect(
        (await anonymous.POST('/api/auth/login', { body: { email: alice.email, password: alice.password } })).response.status,
      ).toBe(200);
      const visitor = new HttpVisitor(house.baseUrl);
      expect((await visitor.post(new URL(passwordLink).pathname, { action: 'password', password: 'moving-day' })).status).toBe(
        303,
      );
      expect(isDocument(await visitor.get(new URL(passwordLink).pathname))).toBe(true);
    } finally {
      await house.cleanup();
    }
  });

  it('refuses to restore into an instance that already has accounts', async () => {
    const again = await cli(['restore', archive], { DATABASE_URL: target!.env.DATABASE_URL!, DATA_DIR: join(work, 'again') });
    expect(again.code).toBe(1);
    expect(again.output).toContain('already has accounts');
  });
});
