import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unwrap, type Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument } from '../support/browser.js';
import { EICAR } from '../support/clamd.js';

type Uploaded = Schemas['UploadResponseDto'];
type Created = Schemas['CreatedShareDto'];
// `shares get` and `shares edit` add the policies the Share object leaves out.
type Share = Schemas['ShareDto'] & Schemas['SharePoliciesDto'];
type FolderTree = Schemas['FolderTreeDto'];
type FolderNode = Schemas['FolderNodeDto'];
type FolderAnswer = Schemas['FolderResponseDto'];
type FileAnswer = Schemas['ConsoleFileResponseDto'];
type Trash = Schemas['TrashListDto'];
type Purged = Schemas['PurgeResultDto'];
type Stats = Schemas['ShareAnalyticsDto'];
type Notifications = Schemas['NotificationPageDto'] & { markedRead?: number };
type Activity = Schemas['AuditPageDto'];
interface Cat {
  fileId: string;
  mediaType: string;
  versionId: string;
  text: string;
}

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

interface RunResult {
  code: number | null;
  stdout: string;
  /** stdout as the process wrote it, for byte-exact comparisons. */
  bytes: Buffer;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string>, input?: string, cwd?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const bytes = Buffer.concat(chunks);
      resolve({ code, stdout: bytes.toString('utf8'), bytes, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/**
 * Runs the CLI on a pseudo-terminal (through `script`), typing each reply once its prompt has
 * appeared. What the terminal shows (stdout and stderr) is in stdout.
 */
function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  replies: [prompt: string, reply: string][] = [],
): Promise<{ code: number | null; stdout: string }> {
  const command = [process.execPath, CLI_BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const pending = [...replies];
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      while (pending.length && stdout.includes(pending[0]![0])) child.stdin.write(`${pending.shift()![1]}\n`);
      if (!pending.length) child.stdin.end();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '') }));
    if (!pending.length) child.stdin.end();
  });
}

function json<T = unknown>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** A failed run: its exit code, the error code it printed, and nothing on stdout. */
function failure(result: RunResult): { code: number | null; error: string; stdout: string } {
  return { code: result.code, error: /^([A-Z_]+): /.exec(result.stderr)?.[1] ?? result.stderr, stdout: result.stdout };
}

function findFolder(nodes: FolderNode[], id: string): FolderNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findFolder(node.children, id);
    if (below) return below;
  }
  return undefined;
}

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

// Every test spawns several CLI processes; on a busy 2-core machine each start can take seconds.
describe(
  'sharedown CLI: folders, file moves and text, trash, share edits and analytics, notifications, activity',
  {
    timeout: 180_000,
  },
  () => {
    let app: RunningApp;
    let alice: TestUser;
    let home: string;
    let env: Record<string, string>;
    const cli = (args: string[], input?: string) => runCli(args, env, input, home);

    const usedBytes = async () => (await unwrap(alice.api.GET('/api/v1/me'))).user.usedBytes;

    async function upload(name: string, content: string, extra: string[] = []): Promise<Uploaded['file']> {
      await writeFile(join(home, name), content);
      return json<Uploaded>(await cli(['files', 'upload', name, '--json', ...extra])).file;
    }

    async function waitForScan(fileId: string, status: string): Promise<void> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const file = await unwrap(alice.api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } }));
        if (file.scanStatus === status) return;
        if (file.scanStatus !== 'PENDING' || Date.now() > deadline) {
          throw new Error(`scan of ${fileId} is ${file.scanStatus}, waited for ${status}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    /** Opens a share link as a desktop Chrome would, and waits until the visit is in the log. */
    async function visit(share: Created, expectedVisits: number): Promise<void> {
      const answer = await new HttpVisitor(app.baseUrl, CHROME).get(new URL(share.url).pathname);
      expect(isDocument(answer)).toBe(true);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const page = await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: share.share.id } } }));
        if (page.visits.length >= expectedVisits) return;
        if (Date.now() > deadline) throw new Error(`only ${page.visits.length} of ${expectedVisits} visits logged`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    beforeAll(async () => {
      app = await startApp();
      alice = await createUser(app.baseUrl);
      home = await mkdtemp(join(tmpdir(), 'sharedown-cli-doors-'));
      env = {
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'xdg'),
        PATH: process.env.PATH ?? '',
        SHAREDOWN_URL: app.baseUrl,
        SHAREDOWN_TOKEN: alice.token,
      };
    });
    afterAll(async () => {
      await app?.cleanup();
      if (home) await rm(home, { recursive: true, force: true });
    });

    describe('folders', () => {
      let projects: string;
      let drafts: string;
      let archive: string;

      it('create makes top-level folders and sub-folders (--json and human)', async () => {
        const created = json<FolderAnswer>(await cli(['folders', 'create', 'Projects', '--json']));
        expect(created).toEqual({
          folder: { id: expect.any(String), name: 'Projects', parentId: null, createdAt: expect.any(String) },
        });
        projects = created.folder.id;
        const human = await cli(['folders', 'create', 'Drafts', '--parent', projects]);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/name\s+Drafts/);
        expect(human.stdout).toMatch(new RegExp(`parent\\s+${projects}`));
        drafts = /^id\s+(\S+)$/m.exec(human.stdout)![1]!;
        archive = json<FolderAnswer>(await cli(['folders', 'create', 'Archive', '--json'])).folder.id;
        const duplicate = await cli(['folders', 'create', 'Archive']);
        expect(failure(duplicate)).toEqual({ code: 1, error: 'DUPLICATE', stdout: '' });
      });

      it('ls shows the tree with ids, or the API answer', async () => {
        const tree = json<FolderTree>(await cli(['folders', 'ls', '--json']));
        expect(tree.folders.map((folder) => folder.name).sort()).toEqual(['Archive', 'Projects']);
        expect(findFolder(tree.folders, projects)!.children.map((child) => child.id)).toEqual([drafts]);
        const human = await cli(['folders', 'ls']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(new RegExp(`^Projects\\s+${projects}$`, 'm'));
        expect(human.stdout).toMatch(new RegExp(`^└── Drafts\\s+${drafts}$`, 'm'));
        expect(human.stdout).toMatch(new RegExp(`^Archive\\s+${archive}$`, 'm'));
      });

      it('mv moves a folder to the top level or into another; both or neither of --parent and --root is a usage error', async () => {
        expect(json<FolderAnswer>(await cli(['folders', 'mv', drafts, '--root', '--json'])).folder).toMatchObject({
          id: drafts,
          parentId: null,
        });
        const human = await cli(['folders', 'mv', drafts, '--parent', archive]);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(new RegExp(`parent\\s+${archive}`));
        const tree = json<FolderTree>(await cli(['folders', 'ls', '--json']));
        expect(findFolder(tree.folders, archive)!.children.map((child) => child.id)).toEqual([drafts]);
        expect(findFolder(tree.folders, projects)!.children).toEqual([]);

        const both = await cli(['folders', 'mv', drafts, '--parent', projects, '--root']);
        expect(both.code).toBe(2);
        expect(both.stderr).toContain('not both');
        expect((await cli(['folders', 'mv', drafts])).code).toBe(2);
        const intoItself = await cli(['folders', 'mv', archive, '--parent', drafts, '--json']);
        expect(intoItself.code).toBe(1);
        expect(JSON.parse(intoItself.stderr).error).toMatchObject({ code: 'CONFLICT', status: 409 });
      });

      it('rename renames', async () => {
        expect(json<FolderAnswer>(await cli(['folders', 'rename', archive, 'Old stuff', '--json'])).folder).toMatchObject({
          id: archive,
          name: 'Old stuff',
        });
        const human = await cli(['folders', 'rename', drafts, 'Sketches']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/name\s+Sketches/);
        expect((await cli(['folders', 'ls'])).stdout).toMatch(new RegExp(`└── Sketches\\s+${drafts}`));
      });

      it('rm moves a folder with its files to the trash', async () => {
        const temp = json<FolderAnswer>(await cli(['folders', 'create', 'Temp', '--json'])).folder.id;
        await upload('inside.md', '# inside\n', ['--folder', temp]);
        const human = await cli(['folders', 'rm', temp]);
        expect(human.code).toBe(0);
        expect(human.stdout).toContain(`Moved folder Temp (${temp}) to the trash`);
        const tree = json<FolderTree>(await cli(['folders', 'ls', '--json']));
        expect(findFolder(tree.folders, temp)).toBeUndefined();
        const trash = json<Trash>(await cli(['trash', 'ls', '--json']));
        expect(trash.folders).toEqual([expect.objectContaining({ id: temp, name: 'Temp', fileCount: 1 })]);
        expect(failure(await cli(['folders', 'rm', temp]))).toEqual({ code: 1, error: 'NOT_FOUND', stdout: '' });
        const gone = json<FolderAnswer>(await cli(['folders', 'create', 'Gone', '--json'])).folder.id;
        expect(json<FolderAnswer>(await cli(['folders', 'rm', gone, '--json'])).folder).toMatchObject({ id: gone, name: 'Gone' });
      });
    });

    describe('files cat and mv', () => {
      const MARKDOWN = '# Überblick — 概要\n\nCafé, naïve, 🎉, «quotes» and\ttabs  \n\n- [x] done\n';
      // A byte-order mark, CRLF line ends and no newline at the end: all stored, all served back.
      const RAW = '\uFEFFfirst line\r\nsecond line without newline ✓';
      let notes: Uploaded['file'];
      let raw: Uploaded['file'];

      beforeAll(async () => {
        notes = await upload('notes.md', MARKDOWN);
        raw = await upload('raw.txt', RAW);
        await Promise.all([waitForScan(notes.id, 'CLEAN'), waitForScan(raw.id, 'CLEAN')]);
      });

      it('cat writes the stored document to stdout byte for byte and nothing else', async () => {
        const markdown = await cli(['files', 'cat', notes.id]);
        expect(markdown.code).toBe(0);
        expect(markdown.bytes.equals(Buffer.from(MARKDOWN, 'utf8'))).toBe(true);
        expect(markdown.stderr).toBe('');
        const text = await cli(['files', 'cat', raw.id]);
        expect(text.code).toBe(0);
        expect(text.bytes.equals(Buffer.from(RAW, 'utf8'))).toBe(true);
        expect(text.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      });

      it('cat --json gives the file, media type, version and text', async () => {
        expect(json<Cat>(await cli(['files', 'cat', notes.id, '--json']))).toEqual({
          fileId: notes.id,
          mediaType: 'text/markdown; charset=utf-8',
          versionId: expect.any(String),
          text: MARKDOWN,
        });
        expect(json<Cat>(await cli(['--json', 'files', 'cat', raw.id]))).toMatchObject({
          mediaType: 'text/plain; charset=utf-8',
          text: RAW,
        });
        const missing = await cli(['files', 'cat', 'no-such-file', '--json']);
        expect(missing.code).toBe(1);
        expect(missing.stdout).toBe('');
        expect(JSON.parse(missing.stderr)).toEqual({ error: { code: 'NOT_FOUND', status: 404, message: expect.any(String) } });
      });

      it('cat of a quarantined file exits 1 with INFECTED and prints nothing on stdout', async () => {
        const eicar = json<Uploaded>(await cli(['files', 'upload', '-', '--name', 'eicar.txt', '--json'], EICAR)).file;
        await waitForScan(eicar.id, 'INFECTED');
        const human = await cli(['files', 'cat', eicar.id]);
        expect(failure(human)).toEqual({ code: 1, error: 'INFECTED', stdout: '' });
        expect(human.bytes.length).toBe(0);
        const asJson = await cli(['files', 'cat', eicar.id, '--json']);
        expect(asJson.code).toBe(1);
        expect(asJson.stdout).toBe('');
        expect(JSON.parse(asJson.stderr).error).toMatchObject({ code: 'INFECTED', status: 409 });
      });

      it('mv moves into a folder, renames, and moves back to the root', async () => {
        const folder = json<FolderAnswer>(await cli(['folders', 'create', 'Docs', '--json'])).folder.id;
        const moved = json<FileAnswer>(await cli(['files', 'mv', notes.id, '--folder', folder, '--json']));
        expect(moved.file).toMatchObject({ id: notes.id, name: 'notes.md', folderId: folder });
        expect(json<Cat>(await cli(['files', 'cat', notes.id, '--json'])).versionId).toBe(moved.file.currentVersionId);
        const listed = json<{ files: Array<{ id: string }> }>(await cli(['files', 'ls', '--folder', folder, '--json']));
        expect(listed.files.map((file) => file.id)).toEqual([notes.id]);

        const renamed = await cli(['files', 'mv', notes.id, '--name', 'überblick.md']);
        expect(renamed.code).toBe(0);
        expect(renamed.stdout).toMatch(/name\s+überblick\.md/);
        expect(renamed.stdout).toMatch(new RegExp(`folder\\s+${folder}`));

        const both = json<FileAnswer>(await cli(['files', 'mv', notes.id, '--root', '--name', 'notes.md', '--json']));
        expect(both.file).toMatchObject({ name: 'notes.md', folderId: null });
        expect((await cli(['files', 'cat', notes.id])).bytes.equals(Buffer.from(MARKDOWN))).toBe(true);
      });

      it('mv refuses --folder with --root and nothing to do (exit 2); the API refuses a taken name', async () => {
        const both = await cli(['files', 'mv', notes.id, '--folder', 'x', '--root']);
        expect(both.code).toBe(2);
        expect(both.stderr).toMatch(/^USAGE: .*not both/);
        const nothing = await cli(['files', 'mv', notes.id, '--json']);
        expect(nothing.code).toBe(2);
        expect(JSON.parse(nothing.stderr).error).toMatchObject({ code: 'USAGE', status: null });
        expect(failure(await cli(['files', 'mv', notes.id, '--name', 'notes.txt']))).toEqual({
          code: 1,
          error: 'VALIDATION',
          stdout: '',
        });
        await upload('taken.md', 'taken\n');
        expect(failure(await cli(['files', 'mv', notes.id, '--name', 'taken.md']))).toEqual({
          code: 1,
          error: 'DUPLICATE',
          stdout: '',
        });
      });
    });

    describe('trash', () => {
      const CONTENT = 'to be thrown away\n';
      let doomed: Uploaded['file'];

      it('ls lists trashed folders and files', async () => {
        doomed = await upload('doomed.md', CONTENT);
        expect((await cli(['files', 'rm', doomed.id])).code).toBe(0);
        const trash = json<Trash>(await cli(['trash', 'ls', '--json']));
        expect(trash.files).toEqual([expect.objectContaining({ id: doomed.id, name: 'doomed.md', sizeBytes: CONTENT.length })]);
        expect(trash.folders.map((folder) => folder.name).sort()).toEqual(['Gone', 'Temp']);
        const human = await cli(['trash', 'ls']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/^Folders$/m);
        expect(human.stdout).toMatch(/^Files$/m);
        expect(human.stdout).toContain('doomed.md');
        expect(human.stdout).toContain('Temp');
      });

      it('restore brings a file back (the default) or, with --folder, a folder and its files', async () => {
        expect(json(await cli(['trash', 'restore', doomed.id, '--json']))).toEqual({
          file: expect.objectContaining({ id: doomed.id, name: 'doomed.md', folderId: null }),
          renamed: false,
        });
        expect(json(await cli(['files', 'get', doomed.id, '--json']))).toMatchObject({ id: doomed.id });

        const temp = json<Trash>(await cli(['trash', 'ls', '--json'])).folders.find((folder) => folder.name === 'Temp')!;
        expect(failure(await cli(['trash', 'restore', temp.id]))).toEqual({ code: 1, error: 'NOT_FOUND', stdout: '' });
        expect((await cli(['trash', 'restore', temp.id, '--file', '--folder'])).code).toBe(2);
        const human = await cli(['trash', 'restore', temp.id, '--folder']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/name\s+Temp/);
        const files = json<{ files: Array<{ name: string }> }>(await cli(['files', 'ls', '--folder', temp.id, '--json']));
        expect(files.files.map((file) => file.name)).toEqual(['inside.md']);
        expect(json<Trash>(await cli(['trash', 'ls', '--json'])).folders.map((folder) => folder.name)).toEqual(['Gone']);
      });

      it('purge of one file frees its storage once', async () => {
        expect((await cli(['files', 'rm', doomed.id])).code).toBe(0);
        const before = await usedBytes();
        expect(json<Purged>(await cli(['trash', 'purge', doomed.id, '--json']))).toEqual({
          purgedFiles: 1,
          freedBytes: CONTENT.length,
        });
        expect(await usedBytes()).toBe(before - CONTENT.length);
        expect(failure(await cli(['trash', 'purge', doomed.id]))).toEqual({ code: 1, error: 'NOT_FOUND', stdout: '' });
        expect(await usedBytes()).toBe(before - CONTENT.length);
      });

      it('purge --folder deletes a trashed folder and its files for good', async () => {
        const temp = json<FolderTree>(await cli(['folders', 'ls', '--json'])).folders.find((folder) => folder.name === 'Temp')!;
        expect((await cli(['folders', 'rm', temp.id])).code).toBe(0);
        const before = await usedBytes();
        const human = await cli(['trash', 'purge', temp.id, '--folder']);
        expect(human.code).toBe(0);
        expect(human.stdout).toBe('Purged 1 file; freed 9 B (9 bytes).\n');
        expect(await usedBytes()).toBe(before - '# inside\n'.length);
      });

      it('purge needs an id or --all, not both (exit 2)', async () => {
        for (const args of [
          ['trash', 'purge'],
          ['trash', 'purge', 'x', '--all'],
          ['trash', 'purge', '--all', '--folder'],
        ]) {
          const result = await cli(args);
          expect({ args, code: result.code }).toEqual({ args, code: 2 });
        }
      });

      it('purge --all asks on a terminal, refuses without one unless --yes, and empties the trash', async () => {
        for (const name of ['one.txt', 'two.txt']) {
          const file = await upload(name, `${name}\n`);
          expect((await cli(['files', 'rm', file.id])).code).toBe(0);
        }
        const piped = await cli(['trash', 'purge', '--all']);
        expect(piped.code).toBe(2);
        expect(piped.stderr).toContain('--yes');
        expect(json<Trash>(await cli(['trash', 'ls', '--json'])).files).toHaveLength(2);

        const declined = await runOnTerminal(['trash', 'purge', '--all'], env, home, [['[y/N]', 'n']]);
        expect(declined.code).toBe(0);
        expect(declined.stdout).toContain('Delete 1 folder and 2 files in the trash for good?');
        expect(declined.stdout).toContain('Nothing purged.');
        expect(json<Trash>(await cli(['trash', 'ls', '--json'])).files).toHaveLength(2);

        const before = await usedBytes();
        const purged = json<Purged>(await cli(['trash', 'purge', '--all', '--yes', '--json']));
        expect(purged).toEqual({ purgedFiles: 2, freedBytes: 'one.txt\n'.length + 'two.txt\n'.length });
        expect(await usedBytes()).toBe(before - purged.freedBytes);
        expect(json(await cli(['trash', 'ls', '--json']))).toEqual({ folders: [], files: [] });
        expect((await cli(['trash', 'ls'])).stdout).toBe('The trash is empty.\n');

        const last = await upload('three.txt', 'three\n');
        expect((await cli(['files', 'rm', last.id])).code).toBe(0);
        const accepted = await runOnTerminal(['trash', 'purge', '--all'], env, home, [['[y/N]', 'y']]);
        expect(accepted.code).toBe(0);
        expect(accepted.stdout).toContain('Purged 1 file; freed 6 B (6 bytes).');
        expect(json<Trash>(await cli(['trash', 'ls', '--json'])).files).toEqual([]);
      });
    });

    describe('shares edit and stats, notifications, activity', () => {
      let fileId: string;
      let created: Created;

      beforeAll(async () => {
        fileId = (await upload('policy.md', '# Policy\n\nRead me.\n')).id;
        await waitForScan(fileId, 'CLEAN');
        created = json<Created>(await cli(['shares', 'create', fileId, '--notify', 'every', '--json']));
      });

      it('edit sets policies, and shares get shows them', async () => {
        const edited = json<Share>(
          await cli([
            'shares',
            'edit',
            created.share.id,
            '--max-visits',
            '5',
            '--password',
            'pass1234',
            '--expires-in-days',
            '3',
            '--watermark-text',
            'DRAFT',
            '--one-session',
            '--email-allowlist',
            'b@example.com,a@example.com',
            '--json',
          ]),
        );
        expect(edited).toMatchObject({
          id: created.share.id,
          token: created.share.token,
          maxVisits: 5,
          hasPassword: true,
          watermarkEnabled: true,
          watermarkText: 'DRAFT',
          notify: 'every',
          oneSession: true,
          requireLogin: true,
        });
        expect([...edited.emailAllowlist].sort()).toEqual(['a@example.com', 'b@example.com']);
        const days = (new Date(edited.expiresAt!).getTime() - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(2.9);
        expect(days).toBeLessThan(3.1);
        expect(json<Share>(await cli(['shares', 'get', created.share.id, '--json']))).toMatchObject({
          maxVisits: 5,
          hasPassword: true,
          expiresAt: edited.expiresAt,
          watermarkText: 'DRAFT',
        });
        const human = await cli(['shares', 'get', created.share.id]);
        expect(human.stdout).toMatch(/visits\s+0 \(unique 0\), max 5/);
        expect(human.stdout).toMatch(/policies\s+password, login required, one session, watermark "DRAFT", notify every/);
        expect(human.stdout).toMatch(/allowlist\s+\S+@example\.com, \S+@example\.com/);
      });

      it('edit --no-… clears them again', async () => {
        const human = await cli([
          'shares',
          'edit',
          created.share.id,
          '--no-max-visits',
          '--no-password',
          '--no-expires-in-days',
          '--no-watermark-text',
          '--no-watermark-enabled',
          '--no-one-session',
          '--no-email-allowlist',
          '--no-require-login',
        ]);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/expires\s+never/);
        expect(human.stdout).toMatch(/visits\s+0 \(unique 0\), max unlimited/);
        expect(human.stdout).toMatch(/policies\s+notify every\n/);
        expect(human.stdout).not.toContain('allowlist');
        expect(json<Share>(await cli(['shares', 'get', created.share.id, '--json']))).toEqual({
          ...created.share,
          maxVisits: null,
          hasPassword: false,
          expiresAt: null,
          watermarkEnabled: false,
          watermarkText: null,
          requireLogin: false,
          notify: 'every',
          oneSession: false,
          emailAllowlist: [],
        });
        expect(
          json<Share>(await cli(['shares', 'edit', created.share.id, '--expires-in-days', '2', '--json'])).expiresAt,
        ).not.toBeNull();
        expect(
          json<Share>(await cli(['shares', 'edit', created.share.id, '--expires-in-days', 'never', '--json'])).expiresAt,
        ).toBeNull();
      });

      it('edit without a flag is a usage error; bad values and revoked links are API errors', async () => {
        const nothing = await cli(['shares', 'edit', created.share.id]);
        expect(nothing.code).toBe(2);
        expect(nothing.stderr).toContain('nothing to change');
        expect((await cli(['shares', 'edit', created.share.id, '--max-visits', 'lots'])).code).toBe(2);
        expect((await cli(['shares', 'edit', created.share.id, '--slug', 'new-name'])).code).toBe(2);
        expect(failure(await cli(['shares', 'edit', created.share.id, '--max-visits', '0']))).toEqual({
          code: 1,
          error: 'VALIDATION',
          stdout: '',
        });
        const other = json<Created>(await cli(['shares', 'create', fileId, '--json']));
        expect((await cli(['shares', 'revoke', other.share.id])).code).toBe(0);
        expect(failure(await cli(['shares', 'edit', other.share.id, '--max-visits', '3']))).toEqual({
          code: 1,
          error: 'CONFLICT',
          stdout: '',
        });
      });

      it('stats summarises the visits (--json is the API answer)', async () => {
        await visit(created, 1);
        await visit(created, 2);
        const stats = json<Stats>(await cli(['shares', 'stats', created.share.id, '--json']));
        expect(stats.days).toHaveLength(30);
        expect(stats).toMatchObject({ humanVisits: 2, automatedVisits: 0, devices: [{ name: 'desktop', visits: 2 }] });
        expect(stats.days.at(-1)).toMatchObject({ human: 2, automated: 0 });
        expect(json<Stats>(await cli(['shares', 'stats', created.share.id, '--days', '7', '--json'])).days).toHaveLength(7);
        const human = await cli(['shares', 'stats', created.share.id]);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/period\s+30 days, \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(UTC\)/);
        expect(human.stdout).toMatch(/visits\s+2 by people, 0 automated/);
        expect(human.stdout).toMatch(new RegExp(`Visits per day\\n  ${stats.days.at(-1)!.day}\\s+2\\s+█+`));
        expect(human.stdout).toMatch(/Devices\n\s+desktop\s+2/);
        expect(human.stdout).toMatch(/Top referrers\n\s+\(direct\)\s+2/);
        expect(failure(await cli(['shares', 'stats', created.share.id, '--days', '0']))).toMatchObject({
          code: 1,
          error: 'VALIDATION',
        });
        expect((await cli(['shares', 'stats', created.share.id, '--days', 'week'])).code).toBe(2);
        expect(failure(await cli(['shares', 'stats', 'no-such-share']))).toMatchObject({ code: 1, error: 'NOT_FOUND' });
      });

      it('notifications lists the visits, pages, and --read marks the listed ones read', async () => {
        const all = json<Notifications>(await cli(['notifications', '--json']));
        expect(all.notifications).toHaveLength(2);
        expect(all).toMatchObject({ unreadCount: 2, nextCursor: null });
        expect(all.notifications[0]).toMatchObject({
          kind: 'visit',
          shareId: created.share.id,
          fileName: 'policy.md',
          readAt: null,
        });
        const human = await cli(['notifications']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/AT\s.*KIND\s.*FILE\s.*DETAIL/);
        expect(human.stdout).toMatch(/visit\s+│?\s*policy\.md\s+│?\s*visit #2 · Chrome on Windows, desktop/);
        expect(human.stdout).toContain('2 unread');

        const first = json<Notifications>(await cli(['notifications', '--unread', '--limit', '1', '--read', '--json']));
        expect(first.notifications.map((n) => n.id)).toEqual([all.notifications[0]!.id]);
        expect(first).toMatchObject({ unreadCount: 1, markedRead: 1, nextCursor: expect.any(String) });
        const unread = json<Notifications>(await cli(['notifications', '--unread', '--json']));
        expect(unread.notifications.map((n) => n.id)).toEqual([all.notifications[1]!.id]);
        const paged = await cli(['notifications', '--limit', '1', '--cursor', first.nextCursor!]);
        expect(paged.code).toBe(0);
        expect(paged.stdout).toContain('visit #1');

        const marked = await cli(['notifications', '--read']);
        expect(marked.code).toBe(0);
        expect(marked.stdout).toContain('0 unread; marked 1 read');
        expect(json<Notifications>(await cli(['notifications', '--unread', '--json']))).toEqual({
          notifications: [],
          unreadCount: 0,
          nextCursor: null,
        });
        expect((await cli(['notifications', '--limit', '101'])).code).toBe(2);
      });

      it('activity pages through the account trail, newest first', async () => {
        const page = json<Activity>(await cli(['activity', '--json']));
        const actions = page.events.map((event) => event.action);
        for (const action of [
          'share.created',
          'share.revoked',
          'file.deleted',
          'file.restored',
          'file.purged',
          'folder.deleted',
        ]) {
          expect(actions).toContain(action);
        }
        expect(actions).toContain('trash.emptied');
        const first = json<Activity>(await cli(['activity', '--limit', '2', '--json']));
        expect(first.events.map((event) => event.id)).toEqual(page.events.slice(0, 2).map((event) => event.id));
        const second = json<Activity>(await cli(['activity', '--limit', '2', '--cursor', first.nextCursor!, '--json']));
        expect(second.events.map((event) => event.id)).toEqual(page.events.slice(2, 4).map((event) => event.id));
        const human = await cli(['activity', '--limit', '3']);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/AT\s.*ACTION\s.*TARGET/);
        expect(human.stderr).toMatch(/More events: run again with --cursor \S+/);
      });
    });

    describe('a read-only token', () => {
      let readerEnv: Record<string, string>;

      beforeAll(async () => {
        const created = await unwrap(
          alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
        );
        readerEnv = { ...env, SHAREDOWN_TOKEN: created.plaintext };
      });

      it('reads, and every write is FORBIDDEN (exit 1) with nothing on stdout', async () => {
        const read = (args: string[]) => runCli(args, readerEnv, undefined, home);
        const files = json<{ files: Array<{ id: string; name: string }> }>(await read(['files', 'ls', '--json'])).files;
        const policy = files.find((file) => file.name === 'policy.md')!;
        expect((await read(['files', 'cat', policy.id])).stdout).toBe('# Policy\n\nRead me.\n');
        expect((await read(['folders', 'ls'])).code).toBe(0);
        expect((await read(['trash', 'ls'])).code).toBe(0);
        expect((await read(['activity'])).code).toBe(0);
        const shares = json<{ shares: Share[] }>(await read(['shares', 'ls', '--file', policy.id, '--json'])).shares;
        const share = shares.find((candidate) => !candidate.revokedAt)!;
        expect((await read(['shares', 'stats', share.id])).code).toBe(0);

        for (const args of [
          ['folders', 'create', 'Nope'],
          ['files', 'mv', policy.id, '--name', 'renamed.md'],
          ['shares', 'edit', share.id, '--max-visits', '9'],
          ['trash', 'purge', '--all', '--yes'],
        ]) {
          const result = await read(args);
          expect({ args, ...failure(result) }).toEqual({ args, code: 1, error: 'FORBIDDEN', stdout: '' });
          expect(result.stderr).toContain('read-only');
        }
        const asJson = await read(['folders', 'create', 'Nope', '--json']);
        expect(asJson.code).toBe(1);
        expect(JSON.parse(asJson.stderr).error).toMatchObject({ code: 'FORBIDDEN', status: 403 });
        expect(json<FolderTree>(await cli(['folders', 'ls', '--json'])).folders.map((folder) => folder.name)).not.toContain(
          'Nope',
        );
      });
    });

    it('--help works on every new command and exits 0', async () => {
      const commands = [
        ['files', 'cat'],
        ['files', 'mv'],
        ['folders'],
        ['folders', 'ls'],
        ['folders', 'create'],
        ['folders', 'mv'],
        ['folders', 'rename'],
        ['folders', 'rm'],
        ['trash'],
        ['trash', 'ls'],
        ['trash', 'restore'],
        ['trash', 'purge'],
        ['shares', 'edit'],
        ['shares', 'stats'],
        ['notifications'],
        ['activity'],
      ];
      for (const command of commands) {
        const result = await cli([...command, '--help']);
        expect({ command, code: result.code }).toEqual({ command, code: 0 });
        expect(result.stdout).toContain('Usage: sharedown');
      }
      const edit = (await cli(['shares', 'edit', '--help'])).stdout;
      for (const flag of [
        '--no-password',
        '--no-expires-in-days',
        '--no-max-visits',
        '--no-watermark-text',
        '--no-require-login',
      ]) {
        expect(edit).toContain(flag);
      }
      expect((await cli(['trash', 'purge', '--help'])).stdout).toContain('--yes');
    });
  },
);
