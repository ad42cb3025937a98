import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrap, type Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, upload, type UploadedDocument } from '../support/browser.js';
import { connect, type Connected } from '../support/mcp-server.js';

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

type AcceptancePage = Schemas['ShareAcceptancePageDto'];
type Share = Schemas['ShareDto'];

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function json<T>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Accepts a link's agreement as one visitor (its own User-Agent), typing `name` when given. */
async function accept(app: RunningApp, path: string, agent: string, name?: string): Promise<void> {
  const visitor = new HttpVisitor(app.baseUrl, agent);
  const page = await visitor.get(path);
  const field = /name="agreement" value="([^"]+)"/.exec(page.body)![1]!;
  const answer = await visitor.post(path, { action: 'agree', agreement: field, accept: 'yes', ...(name ? { name } : {}) });
  expect(answer.status).toBe(303);
}

/** The agreement through the MCP tools and the CLI: set, changed and removed, and its acceptances read. */
describe('agreements through MCP and the CLI', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;
  let home: string;
  let env: Record<string, string>;
  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra }, home);

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    doc = await upload(app, alice, 'doors.md', '# Doors\n\nbehind an agreement');
    home = await mkdtemp(join(tmpdir(), 'sharedown-agreement-doors-'));
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

  describe('MCP', () => {
    let connected: Connected;
    const call = async (name: string, args: Record<string, unknown>) =>
      (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
    const ok = async <T>(name: string, args: Record<string, unknown>) => {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as T;
    };

    beforeAll(async () => {
      connected = await connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
      // Listing first makes the client check every structuredContent against the declared output schemas.
      const { tools } = await connected.client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'service_acceptances')!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.inputSchema.required).toEqual(['shareId']);
    });
    afterAll(async () => connected?.close());

    it('sets, changes and removes an agreement, and pages its acceptances', async () => {
      const created = await ok<{ share: Share; url: string }>('service_share', {
        fileId: doc.fileId,
        options: { agreement: { text: 'MCP terms', requireName: true } },
      });
      expect(created.share.agreement).toEqual({ text: 'MCP terms', requireName: true, sha256: sha256('MCP terms') });
      const path = new URL(created.url).pathname;
      await accept(app, path, 'Agent/1', 'First');
      await accept(app, path, 'Agent/2', 'Second');
      await accept(app, path, 'Agent/3', 'Third');

      const first = await ok<AcceptancePage>('service_acceptances', { shareId: created.share.id, limit: 2 });
      expect(first.acceptances.map((row) => row.name)).toEqual(['Third', 'Second']);
      const second = await ok<AcceptancePage>('service_acceptances', { shareId: created.share.id, cursor: first.nextCursor });
      expect(second).toMatchObject({ nextCursor: null, acceptances: [expect.objectContaining({ name: 'First' })] });
      expect(second.acceptances[0]).toMatchObject({
        email: null,
        ipPrefix: '127.0.0.0/24',
        agreementSha256: sha256('MCP terms'),
      });

      const changed = await ok<{ share: Share }>('service_update_share', {
        shareId: created.share.id,
        options: { agreement: { text: 'MCP terms, v2' } },
      });
      expect(changed.share.agreement).toMatchObject({ text: 'MCP terms, v2', requireName: false });
      const removed = await ok<{ share: Share }>('service_update_share', {
        shareId: created.share.id,
        options: { agreement: null },
      });
      expect(removed.share.agreement).toBeUndefined();

      const tooLong = await call('service_update_share', {
        shareId: created.share.id,
        options: { agreement: { text: 'x'.repeat(20_001) } },
      });
      expect(tooLong.isError).toBe(true);
      const notMine = await call('service_acceptances', { shareId: (await bobsShare()).id });
      expect(notMine.isError).toBe(true);
      expect(JSON.parse((notMine.content[0] as { text: string }).text)).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  async function bobsShare(): Promise<Share> {
    const file = await upload(app, bob, `bob-${Date.now()}.md`, '# bob');
    return (await unwrap(bob.api.POST('/api/v1/shares', { body: { fileId: file.fileId, agreement: { text: 'Bob' } } }))).share;
  }

  describe('CLI', () => {
    it('creates a link with an agreement from a file, edits it, and lists and exports its acceptances', async () => {
      await writeFile(join(home, 'nda.md'), '# NDA\n\nKeep it quiet.\n');
      const created = json<{ share: Share; url: string }>(
        await cli(['shares', 'create', doc.fileId, '--agreement-file', 'nda.md', '--agreement-require-name', '--json']),
      );
      expect(created.share.agreement).toEqual({
        text: '# NDA\n\nKeep it quiet.\n',
        requireName: true,
        sha256: sha256('# NDA\n\nKeep it quiet.\n'),
      });
      const id = created.share.id;
      const path = new URL(created.url).pathname;
      for (const [i, agent] of ['Cli/1', 'Cli/2', 'Cli/3'].entries()) await accept(app, path, agent, `Reader ${i}`);

      const page = json<AcceptancePage>(await cli(['shares', 'acceptances', id, '--limit', '2', '--json']));
      expect(page.acceptances.map((row) => row.name)).toEqual(['Reader 2', 'Reader 1']);
      expect(page.nextCursor).toEqual(expect.any(String));
      const rest = json<AcceptancePage>(await cli(['shares', 'acceptances', id, '--cursor', page.nextCursor!, '--json']));
      expect(rest.acceptances.map((row) => row.name)).toEqual(['Reader 0']);
      const all = json<AcceptancePage>(await cli(['shares', 'acceptances', id, '--all', '--json']));
      expect(all).toMatchObject({ nextCursor: null });
      expect(all.acceptances).toHaveLength(3);
      const table = await cli(['shares', 'acceptances', id]);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/AT\s+│ NAME\s+│ EMAIL │ NETWORK\s+│ AGREEMENT/);
      expect(table.stdout).toContain('Reader 0');
      const csv = await cli(['shares', 'acceptances', id, '--csv']);
      expect(csv.stdout.trim().split('\n')).toHaveLength(4);
      expect(csv.stdout.split('\n')[0]).toBe('id,at,name,email,ipPrefix,userAgent,agreementSha256');

      // Changing only the name rule keeps the text; a new text keeps the name rule.
      const relaxed = json<Share>(await cli(['shares', 'edit', id, '--no-agreement-require-name', '--json']));
      expect(relaxed.agreement).toMatchObject({ text: '# NDA\n\nKeep it quiet.\n', requireName: false });
      const retexted = json<Share>(await cli(['shares', 'edit', id, '--agreement', 'Short terms', '--json']));
      expect(retexted.agreement).toEqual({ text: 'Short terms', requireName: false, sha256: sha256('Short terms') });
      const shown = await cli(['shares', 'get', id]);
      expect(shown.stdout).toMatch(/policies\s+.*agreement/);
      const removed = json<Share>(await cli(['shares', 'edit', id, '--no-agreement', '--json']));
      expect(removed.agreement).toBeUndefined();

      const reader = await unwrap(
        alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
      );
      const readOnly = json<AcceptancePage>(
        await cli(['shares', 'acceptances', id, '--json'], { SHAREDOWN_TOKEN: reader.plaintext }),
      );
      expect(readOnly.acceptances).toHaveLength(3);
      const other = await cli(['shares', 'acceptances', (await bobsShare()).id]);
      expect(other.code).not.toBe(0);
      expect(other.stderr).toMatch(/^NOT_FOUND: /);
      expect(other.stdout).toBe('');
    });

    it('documents the flags in --help', async () => {
      const help = await cli(['shares', 'acceptances', '--help']);
      for (const flag of ['--csv', '--limit', '--cursor', '--all']) expect(help.stdout).toContain(flag);
      const create = await cli(['shares', 'create', '--help']);
      for (const flag of ['--agreement <text>', '--agreement-file <path>', '--agreement-require-name']) {
        expect(create.stdout).toContain(flag);
      }
      expect((await cli(['shares', 'edit', '--help'])).stdout).toContain('--no-agreement');
      expect((await cli(['shares', 'create', doc.fileId, '--agreement-require-name'])).code).toBe(2);
    });
  });
});
