import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, freePort, startApp, type RunningApp, type TestUser } from '../support/app.js';

type Me = Schemas['MeDto'];
type Uploaded = Schemas['UploadResponseDto'];
type FileList = Schemas['FileListDto'];
type Created = Schemas['CreatedShareDto'];
type ShareList = Schemas['ShareListDto'];

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Home {
  dir: string;
  env: Record<string, string>;
  configFile: string;
}

/** A throw-away HOME with its own XDG config dir, so no run sees the developer's real config. */
async function makeHome(xdg = true): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-cli-'));
  const env: Record<string, string> = { HOME: dir, PATH: process.env.PATH ?? '' };
  if (xdg) env.XDG_CONFIG_HOME = join(dir, 'xdg');
  const configFile = xdg ? join(dir, 'xdg', 'sharedown', 'config.json') : join(dir, '.config', 'sharedown', 'config.json');
  return { dir, env, configFile };
}

function runCli(args: string[], env: Record<string, string>, input?: string | Buffer, cwd?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/**
 * Runs the CLI on a pseudo-terminal (through `script`), as an interactive shell would; each reply
 * is typed once its prompt has appeared. Output of the terminal (stdout and stderr) is in stdout.
 */
function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  replies: [prompt: string, reply: string][] = [],
): Promise<RunResult> {
  const command = [process.execPath, CLI_BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const pending = [...replies];
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      while (pending.length && stdout.includes(pending[0]![0])) child.stdin.write(`${pending.shift()![1]}\n`);
      if (!pending.length) child.stdin.end();
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (!pending.length) child.stdin.end();
  });
}

function json<T = unknown>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

// Every test spawns several CLI processes; on a busy 2-core machine each start can take seconds.
describe('sharedown CLI', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let alice: TestUser;
  let home: Home;
  let work: string;
  const cli = (args: string[], input?: string | Buffer) => runCli(args, home.env, input, work);

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    home = await makeHome();
    work = await mkdtemp(join(tmpdir(), 'sharedown-cli-work-'));
  });
  afterAll(async () => {
    await app?.cleanup();
    if (home) await rm(home.dir, { recursive: true, force: true });
    if (work) await rm(work, { recursive: true, force: true });
  });

  describe('login and configuration', () => {
    it('refuses a bad token and stores nothing', async () => {
      const result = await cli(
        ['login', '--url', app.baseUrl, '--token-stdin'],
        'shd_aaaaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n',
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^UNAUTHENTICATED: /);
      await expect(stat(home.configFile)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('without configuration, commands fail with a usage error that says how to log in', async () => {
      const result = await cli(['whoami']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('sharedown login');
      expect(result.stderr).toContain('SHAREDOWN_TOKEN');
    });

    it('login --token-stdin checks the token and stores URL and token with mode 0600 under XDG_CONFIG_HOME', async () => {
      const result = await cli(['login', '--url', `${app.baseUrl}/`, '--token-stdin', '--json'], `${alice.token}\n`);
      expect(json(result)).toEqual({
        url: app.baseUrl,
        user: { id: alice.userId, email: alice.email, quotaBytes: expect.any(Number), usedBytes: expect.any(Number) },
        configPath: home.configFile,
      });
      const info = await stat(home.configFile);
      expect(info.mode & 0o777).toBe(0o600);
      expect((await stat(join(home.configFile, '..'))).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await readFile(home.configFile, 'utf8'))).toEqual({ url: app.baseUrl, token: alice.token });
    });

    it('falls back to ~/.config/sharedown when XDG_CONFIG_HOME is unset, and keeps 0600 when rewriting', async () => {
      const other = await makeHome(false);
      try {
        const first = await runCli(['login', '--url', app.baseUrl, '--token', alice.token], other.env);
        expect(first.code).toBe(0);
        expect(first.stdout).toContain(alice.email);
        expect(first.stdout).toContain(other.configFile);
        expect((await stat(other.configFile)).mode & 0o777).toBe(0o600);
        const second = await runCli(['login', '--token-stdin'], other.env, alice.token);
        expect(second.code).toBe(0);
        expect((await stat(other.configFile)).mode & 0o777).toBe(0o600);
        const logout = await runCli(['logout', '--json'], other.env);
        expect(json(logout)).toEqual({ removed: true, configPath: other.configFile });
        await expect(stat(other.configFile)).rejects.toMatchObject({ code: 'ENOENT' });
      } finally {
        await rm(other.dir, { recursive: true, force: true });
      }
    });

    it('login prompts on a terminal and does not echo the token', async () => {
      const other = await makeHome();
      try {
        const result = await runOnTerminal(['login'], other.env, work, [
          ['Service URL:', app.baseUrl],
          ['API token:', alice.token],
        ]);
        expect(result.code).toBe(0);
        // On a terminal the output is coloured.
        const plain = result.stdout.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
        expect(plain).toContain(`Logged in to ${app.baseUrl} as ${alice.email}.`);
        expect(result.stdout).not.toContain(alice.token.split('_')[2]);
        expect(JSON.parse(await readFile(other.configFile, 'utf8'))).toEqual({ url: app.baseUrl, token: alice.token });
        expect((await stat(other.configFile)).mode & 0o777).toBe(0o600);
      } finally {
        await rm(other.dir, { recursive: true, force: true });
      }
    });

    it('whoami prints the account (human and --json)', async () => {
      const human = await cli(['whoami']);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(alice.email);
      expect(human.stdout).toContain(app.baseUrl);
      expect(human.stdout).not.toMatch(/\x1b\[/);
      expect(json(await cli(['whoami', '--json']))).toEqual({
        user: { id: alice.userId, email: alice.email, quotaBytes: expect.any(Number), usedBytes: expect.any(Number) },
        auth: { source: 'token', tokenId: alice.tokenId },
      });
      expect(json<Me>(await cli(['--json', 'whoami'])).user.email).toBe(alice.email);
    });

    it('SHAREDOWN_URL and SHAREDOWN_TOKEN override the stored values', async () => {
      const bob = await createUser(app.baseUrl);
      const asBob = await runCli(['whoami', '--json'], { ...home.env, SHAREDOWN_TOKEN: bob.token }, undefined, work);
      expect(json<Me>(asBob).user.email).toBe(bob.email);
      const down = await runCli(
        ['whoami'],
        { ...home.env, SHAREDOWN_URL: `http://127.0.0.1:${await freePort()}` },
        undefined,
        work,
      );
      expect(down.code).toBe(3);
      expect(down.stderr).toMatch(/^UNAVAILABLE: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    });
  });

  describe('files', () => {
    let uploadedId: string;

    it('upload <path> stores the file under its base name', async () => {
      await writeFile(join(work, 'notes.md'), '# Notes\n\nHello.\n');
      const result = json<Uploaded>(await cli(['files', 'upload', 'notes.md', '--json']));
      expect(result).toEqual({ file: expect.objectContaining({ name: 'notes.md', kind: 'MARKDOWN', sizeBytes: 16 }) });
      uploadedId = result.file.id;
    });

    it('upload - reads stdin and needs --name', async () => {
      const missing = await cli(['files', 'upload', '-'], 'hello');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--name');
      const result = json<Uploaded>(
        await cli(['files', 'upload', '-', '--name', 'from-stdin.txt', '--json'], 'hello from stdin'),
      );
      expect(result.file).toMatchObject({ name: 'from-stdin.txt', kind: 'TEXT', sizeBytes: 16 });
      const human = await cli(['files', 'upload', '-', '--name', 'page.html'], '<p>hi</p>');
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/name\s+page\.html/);
      expect(human.stdout).toMatch(/kind\s+HTML/);
    });

    it('ls lists files as a table or { files }', async () => {
      const listed = json<FileList>(await cli(['files', 'ls', '--json']));
      expect(Object.keys(listed)).toEqual(['files']);
      expect(listed.files.map((file) => file.name)).toEqual(expect.arrayContaining(['notes.md', 'from-stdin.txt', 'page.html']));
      const human = await cli(['files', 'ls']);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/ID\s.*NAME\s.*KIND/);
      expect(human.stdout).toContain('notes.md');
    });

    it('ls --limit prints one page and the cursor that continues it; without --limit every page is read', async () => {
      const whole = json<FileList>(await cli(['files', 'ls', '--json'])).files.map((file) => file.id);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = json<FileList & { nextCursor: string | null }>(
          await cli(['files', 'ls', '--json', '--limit', '1', ...(cursor ? ['--cursor', cursor] : [])]),
        );
        expect(page.files.length).toBeLessThanOrEqual(1);
        paged.push(...page.files.map((file) => file.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged).toEqual(whole);
      const human = await cli(['files', 'ls', '--limit', '1']);
      expect(human.code).toBe(0);
      expect(human.stderr).toMatch(/More files: run again with --cursor \S+/);
      const bad = await cli(['files', 'ls', '--limit', '500']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('1 to 200');
      const forged = await cli(['shares', 'ls', '--cursor', 'not-a-cursor']);
      expect(forged.code).toBe(1);
      expect(forged.stderr).toMatch(/^VALIDATION: /);
    });

    it('get shows one file; a missing id exits 1 with CODE: message', async () => {
      expect(json(await cli(['files', 'get', uploadedId, '--json']))).toMatchObject({ id: uploadedId, name: 'notes.md' });
      const missing = await cli(['files', 'get', 'nope']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^NOT_FOUND: .+/);
      expect(missing.stdout).toBe('');
      const missingJson = await cli(['files', 'get', 'nope', '--json']);
      expect(missingJson.code).toBe(1);
      expect(JSON.parse(missingJson.stderr)).toEqual({ error: { code: 'NOT_FOUND', status: 404, message: expect.any(String) } });
    });

    it('an existing name in the folder is a DUPLICATE (exit 1)', async () => {
      const result = await cli(['files', 'upload', 'notes.md']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^DUPLICATE: /);
    });

    it('a missing local file is a usage error (exit 2)', async () => {
      const result = await cli(['files', 'upload', 'does-not-exist.md']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no such file');
    });

    it('rm moves the file to the trash', async () => {
      await writeFile(join(work, 'doomed.txt'), 'bye');
      const file = json<Uploaded>(await cli(['files', 'upload', 'doomed.txt', '--json'])).file;
      const removed = await cli(['files', 'rm', file.id]);
      expect(removed.code).toBe(0);
      expect(removed.stdout).toContain(file.id);
      expect((await cli(['files', 'get', file.id])).code).toBe(1);
      const again = await cli(['files', 'rm', file.id, '--json']);
      expect(again.code).toBe(1);
    });
  });

  describe('shares', () => {
    let fileId: string;

    beforeAll(async () => {
      await writeFile(join(work, 'shared.md'), '# Shared\n');
      fileId = json<Uploaded>(await cli(['files', 'upload', 'shared.md', '--json'])).file.id;
    });

    it('create maps every ShareInput flag and prints the URL', async () => {
      const result = json<Created>(
        await cli([
          'shares',
          'create',
          fileId,
          '--json',
          '--expires-in-days',
          '7',
          '--password',
          'pass1234',
          '--max-visits',
          '5',
          '--per-visitor-max-visits',
          '2',
          '--watermark-text',
          'CONFIDENTIAL',
          '--copy-protection-enabled',
          '--burn-after-read-enabled',
          '--slug',
          `cli-${Date.now()}`,
        ]),
      );
      expect(result.url).toBe(`${app.baseUrl}/s/${alice.segment}/${result.share.token}`);
      expect(result.share).toMatchObject({
        fileId,
        hasPassword: true,
        maxVisits: 5,
        perVisitorMaxVisits: 2,
        watermarkEnabled: true,
        watermarkText: 'CONFIDENTIAL',
        copyProtectionEnabled: true,
        burnAfterReadEnabled: true,
        expiresAt: expect.any(String),
      });
      const days = (new Date(result.share.expiresAt!).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThan(7.1);

      const login = json<Created>(
        await cli([
          'shares',
          'create',
          fileId,
          '--json',
          '--one-time',
          '--require-login',
          '--one-session',
          '--per-login-user-max-visits',
          '1',
          '--email-allowlist',
          'a@example.com,b@example.com',
          '--email-allowlist',
          'c@example.com',
        ]),
      );
      expect(login.share).toMatchObject({ oneTime: true, maxVisits: 1, requireLogin: true, perLoginUserMaxVisits: 1 });

      const human = await cli(['shares', 'create', fileId, '--expires-in-days', 'never']);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(new RegExp(`url\\s+${app.baseUrl.replace(/\./g, '\\.')}/s/${alice.segment}/`));
      expect(human.stdout).toMatch(/expires\s+never/);
    });

    it('out-of-range values come back from the API as VALIDATION (exit 1); non-numbers are usage errors (exit 2)', async () => {
      const range = await cli(['shares', 'create', fileId, '--max-visits', '0']);
      expect(range.code).toBe(1);
      expect(range.stderr).toMatch(/^VALIDATION: /);
      const notNumber = await cli(['shares', 'create', fileId, '--max-visits', 'lots']);
      expect(notNumber.code).toBe(2);
      expect(notNumber.stderr).toContain('--max-visits');
    });

    it('a taken slug is SLUG_TAKEN', async () => {
      const slug = `taken-${Date.now()}`;
      expect((await cli(['shares', 'create', fileId, '--slug', slug])).code).toBe(0);
      const again = await cli(['shares', 'create', fileId, '--slug', slug]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^SLUG_TAKEN: /);
    });

    it('ls, get and revoke', async () => {
      const created = json<Created>(await cli(['shares', 'create', fileId, '--json'])).share;
      const listed = json<ShareList>(await cli(['shares', 'ls', '--file', fileId, '--json']));
      expect(Object.keys(listed)).toEqual(['shares']);
      expect(listed.shares.map((share) => share.id)).toContain(created.id);
      expect(listed.shares.every((share) => share.fileId === fileId)).toBe(true);
      const all = json<ShareList>(await cli(['shares', 'ls', '--json']));
      expect(all.shares.length).toBeGreaterThanOrEqual(listed.shares.length);
      const table = await cli(['shares', 'ls', '--file', fileId]);
      expect(table.stdout).toMatch(/ID\s.*TOKEN\s.*STATE/);
      expect(table.stdout).toContain(created.id);

      expect(json(await cli(['shares', 'get', created.id, '--json']))).toMatchObject({ id: created.id, revokedAt: null });
      const human = await cli(['shares', 'get', created.id]);
      expect(human.stdout).toMatch(/state\s+active/);

      const revoked = json(await cli(['shares', 'revoke', created.id, '--json']));
      expect(revoked).toEqual({ share: expect.objectContaining({ id: created.id, revokedAt: expect.any(String) }) });
      expect((await cli(['shares', 'get', created.id])).stdout).toMatch(/state\s+revoked/);
      expect((await cli(['shares', 'revoke', 'no-such-share'])).code).toBe(1);
    });
  });

  describe('publish', () => {
    it('uploads and shares in one call, printing only the URL', async () => {
      await writeFile(join(work, 'post.md'), '# Post\n');
      const result = await cli(['publish', 'post.md', '--password', 'pass1234']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^${app.baseUrl.replace(/\./g, '\\.')}/s/${alice.segment}/[A-Za-z0-9_-]+\\n$`));
      const token = result.stdout.trim().split('/').pop()!;
      const shares = json<ShareList>(await cli(['shares', 'ls', '--json'])).shares;
      expect(shares.find((share) => share.token === token)).toMatchObject({ hasPassword: true, fileName: 'post.md' });
    });

    it('--json gives { file, share, url }; stdin works with --name', async () => {
      const result = json<Required<Uploaded>>(
        await cli(['publish', '-', '--name', 'piped.txt', '--one-time', '--json'], 'piped text'),
      );
      expect(Object.keys(result).sort()).toEqual(['file', 'share', 'url']);
      expect(result.file).toMatchObject({ name: 'piped.txt', kind: 'TEXT' });
      expect(result.share).toMatchObject({ fileId: result.file.id, oneTime: true });
      expect(result.url).toBe(`${app.baseUrl}/s/${alice.segment}/${result.share.token}`);
    });

    it('publishing a duplicate name fails without creating a share', async () => {
      const before = json<ShareList>(await cli(['shares', 'ls', '--json'])).shares.length;
      const result = await cli(['publish', 'post.md']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^DUPLICATE: /);
      expect(json<ShareList>(await cli(['shares', 'ls', '--json'])).shares.length).toBe(before);
    });
  });

  describe('validate', () => {
    it('reports a clean document with exit 0 and --json ValidateResult', async () => {
      await writeFile(join(work, 'clean.md'), '# Title\r\n\ttext  \r\n');
      const result = json<Schemas['ValidateResultDto']>(await cli(['validate', 'clean.md', '--json']));
      expect(result).toEqual({ kind: 'MARKDOWN', ok: true, normalized: '# Title\n    text\n', issues: expect.any(Array) });
      const normalized = await cli(['validate', 'clean.md', '--normalized']);
      expect(normalized.stdout).toBe('# Title\n    text\n');
      const human = await cli(['validate', 'clean.md']);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/OK \(MARKDOWN/);
    });

    it('exits 4 when the content has errors; stdin needs --kind', async () => {
      const needsKind = await cli(['validate', '-'], '<div>');
      expect(needsKind.code).toBe(2);
      expect(needsKind.stderr).toContain('--kind');
      const broken = await cli(['validate', '-', '--kind', 'html'], '<div><span>x</div>\n');
      expect(broken.code).toBe(4);
      expect(broken.stdout).toMatch(/error/);
      const brokenJson = await cli(['validate', '-', '--kind', 'HTML', '--json'], '<div><span>x</div>\n');
      expect(brokenJson.code).toBe(4);
      expect(JSON.parse(brokenJson.stdout)).toMatchObject({ kind: 'HTML', ok: false });
      expect((await cli(['validate', '-', '--kind', 'pdf'], 'x')).code).toBe(2);
    });

    it('words issues and api errors in the language of LANG, English without one', async () => {
      const broken = '<div><span>x</div>\n';
      const inGerman = await runCli(['validate', '-', '--kind', 'html'], { ...home.env, LANG: 'de_DE.UTF-8' }, broken, work);
      expect(inGerman.stdout).toContain('Das End-Tag </div> passt nicht zum offenen <span> (Zeile 1, Spalte 6).');
      const inChinese = await runCli(['validate', '-', '--kind', 'html'], { ...home.env, LC_ALL: 'zh_CN.UTF-8' }, broken, work);
      expect(inChinese.stdout).toContain('结束标签 </div> 与未闭合的 <span>（第 1 行第 6 列）不匹配');
      expect((await cli(['validate', '-', '--kind', 'html'], broken)).stdout).toContain(
        'End tag </div> does not match the open <span> (line 1, column 6).',
      );
      const missing = await runCli(['files', 'get', 'nope'], { ...home.env, LANG: 'ja_JP.UTF-8' }, undefined, work);
      expect(missing.stderr).toBe('NOT_FOUND: 存在しないか、あなたのものではありません。\n');
    });
  });

  describe('exit codes and help', () => {
    it('usage errors exit 2', async () => {
      for (const args of [['frobnicate'], ['files', 'get'], ['files', 'ls', '--bogus'], ['shares'], []]) {
        const result = await cli(args);
        expect({ args, code: result.code }).toEqual({ args, code: 2 });
      }
    });

    it('--help works on every command and exits 0', async () => {
      const commands = [
        [],
        ['login'],
        ['logout'],
        ['whoami'],
        ['files'],
        ['files', 'ls'],
        ['files', 'get'],
        ['files', 'upload'],
        ['files', 'rm'],
        ['shares'],
        ['shares', 'ls'],
        ['shares', 'create'],
        ['shares', 'get'],
        ['shares', 'revoke'],
        ['validate'],
        ['publish'],
      ];
      for (const command of commands) {
        const result = await cli([...command, '--help']);
        expect({ command, code: result.code }).toEqual({ command, code: 0 });
        expect(result.stdout).toContain('Usage: sharedown');
      }
      const create = await cli(['shares', 'create', '--help']);
      for (const flag of [
        '--expires-in-days',
        '--password',
        '--max-visits',
        '--per-visitor-max-visits',
        '--per-login-user-max-visits',
        '--one-time',
        '--require-login',
        '--watermark-enabled',
        '--watermark-text',
        '--copy-protection-enabled',
        '--burn-after-read-enabled',
        '--slug',
        '--locked-version-id',
        '--one-session',
        '--email-allowlist',
      ]) {
        expect(create.stdout).toContain(flag);
      }
      expect((await cli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    });

    it('a 429 exits 1 and says when to retry', async () => {
      const limited = await createUser(app.baseUrl, { rateLimitPerMinute: 1 });
      const env = { ...home.env, SHAREDOWN_TOKEN: limited.token };
      expect((await runCli(['whoami'], env)).code).toBe(0);
      const result = await runCli(['whoami'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^RATE_LIMITED: /);
      expect(result.stderr).toMatch(/Retry in \d+ s/);
      const asJson = await runCli(['whoami', '--json'], env);
      expect(JSON.parse(asJson.stderr).error).toMatchObject({
        code: 'RATE_LIMITED',
        status: 429,
        retryAfterSeconds: expect.any(Number),
        retryAt: expect.any(String),
      });
    });
  });

  describe('progress bar', () => {
    it('shows on a terminal for uploads over 1 MB and never on a pipe', async () => {
      const big = join(work, 'big.txt');
      await writeFile(big, 'x'.repeat(1024 * 1024 + 4096));
      const piped = json<Uploaded>(await cli(['files', 'upload', big, '--name', 'big-piped.txt', '--json']));
      expect(piped.file.sizeBytes).toBe(1024 * 1024 + 4096);
      const tty = await runOnTerminal(['files', 'upload', big, '--name', 'big-tty.txt'], home.env, work);
      expect(tty.code).toBe(0);
      expect(tty.stdout).toContain('Uploading big-tty.txt');
      expect(tty.stdout).toContain('100%');
      expect(tty.stdout).toMatch(/name\s+.*big-tty\.txt/);
      expect(json<FileList>(await cli(['files', 'ls', '--json'])).files.map((file) => file.name)).toContain('big-tty.txt');
    });
  });
});
