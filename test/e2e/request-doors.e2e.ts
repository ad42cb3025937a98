import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrap, type Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { connect, type Connected } from '../support/mcp-server.js';

type Request = Schemas['RequestDto'];
type Upload = Schemas['RequestUploadDto'];

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

/** An uploader's POST to a request's page, as a script sends it (JSON answers). */
async function uploadTo(url: string, name: string, content: string, uploader = 'Ann Uploader'): Promise<number> {
  const form = new FormData();
  form.append('name', uploader);
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  const response = await fetch(url, { method: 'POST', body: form, headers: { accept: 'application/json' } });
  await response.arrayBuffer();
  return response.status;
}

const textOf = (result: CallToolResult) => (result.content.find((part) => part.type === 'text') as { text: string }).text;

let titles = 0;
/** A title of its own per call, so that a retried test makes its own requests and folders. */
const titled = (name: string) => `${name} ${process.pid}-${++titles}`;

/**
 * Document requests through the agents' door (the MCP tool server, as its own process over stdio)
 * and the shell's (the built CLI), both against one service: what one door does, the other sees.
 */
describe('document requests through the MCP tool server and the CLI', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let mcp: Connected;
  let readerMcp: Connected;
  let home: string;
  let env: Record<string, string>;
  let readerEnv: Record<string, string>;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = [await createUser(app.baseUrl), await createUser(app.baseUrl)];
    const reader = await unwrap(
      alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
    );
    [mcp, readerMcp] = await Promise.all([
      connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token }),
      connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: reader.plaintext }),
    ]);
    // Listing first makes the SDK client check every structuredContent against the declared output schemas.
    await Promise.all([mcp.client.listTools(), readerMcp.client.listTools()]);
    home = await mkdtemp(join(tmpdir(), 'sharedown-request-doors-'));
    env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'xdg'),
      PATH: process.env.PATH ?? '',
      SHAREDOWN_URL: app.baseUrl,
      SHAREDOWN_TOKEN: alice.token,
    };
    readerEnv = { ...env, SHAREDOWN_TOKEN: reader.plaintext };
  });
  afterAll(async () => {
    await Promise.all([mcp?.close(), readerMcp?.close()]);
    if (home) await rm(home, { recursive: true, force: true });
    await app?.cleanup();
  });

  const callWith = async (connected: Connected, name: string, args: Record<string, unknown>) =>
    (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
  const call = (name: string, args: Record<string, unknown>) => callWith(mcp, name, args);
  async function ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    return result.structuredContent as T;
  }
  /** The `{ code, status, message }` of a failed tool call. */
  function refusal(result: CallToolResult): { code: string; status: number; message: string } {
    expect(result.isError, textOf(result)).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    return JSON.parse(textOf(result)) as { code: string; status: number; message: string };
  }
  async function cliJson<T>(args: string[]): Promise<T> {
    const result = await runCli([...args, '--json'], env);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  /** A request made through one door, the other's id kept for the checks. */
  async function viaMcp(title: string, args: Record<string, unknown> = {}): Promise<Request> {
    const created = await ok<{ request: Request; url: string }>('service_create_request', { title, ...args });
    expect(created.url).toBe(created.request.url);
    return created.request;
  }
  async function viaCli(title: string, flags: string[] = []): Promise<Request> {
    return (await cliJson<{ request: Request; url: string }>(['requests', 'create', title, ...flags])).request;
  }
  const uploadsOf = async (user: TestUser, id: string): Promise<Upload[]> =>
    (await unwrap(user.api.GET('/api/v1/requests/{id}/uploads', { params: { path: { id } } }))).uploads;

  it('creates through both doors with the options given; each lists and shows what the other made', async () => {
    const byMcp = await viaMcp(titled('MCP request'), {
      instructions: 'Send **both** policies.',
      maxUploads: 2,
      password: 'hunter22',
      emailAllowlist: ['ann@example.com'],
      notify: 'daily',
    });
    expect(byMcp).toMatchObject({
      state: 'OPEN',
      uploadCount: 0,
      maxUploads: 2,
      hasPassword: true,
      emailAllowlist: ['ann@example.com'],
      notify: 'daily',
      expiresAt: null,
      closedAt: null,
    });
    expect(byMcp.url).toMatch(new RegExp(`^${app.baseUrl}/r/${alice.segment}/[A-Za-z0-9_-]+$`));

    // Human output: the link alone on stdout (not a terminal: no QR code), the id on stderr.
    const cliTitle = titled('CLI request');
    const created = await runCli(
      ['requests', 'create', '--title', cliTitle, '--max-uploads', '3', '--expires-in-days', '7', '--notify', 'off'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^${app.baseUrl}/r/${alice.segment}/[A-Za-z0-9_-]+\\n$`));
    const url = created.stdout.trim();

    const listed = await ok<{ requests: Request[]; nextCursor: string | null }>('service_list_requests', { state: 'OPEN' });
    const byCli = listed.requests.find((request) => request.url === url)!;
    expect(byCli).toMatchObject({ title: cliTitle, maxUploads: 3, notify: 'off', hasPassword: false, emailAllowlist: null });
    expect(new Date(byCli.expiresAt!).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(created.stderr).toContain(byCli.id);
    expect(listed.requests.map((request) => request.id)).toEqual(expect.arrayContaining([byMcp.id, byCli.id]));
    const closedOnes = await ok<{ requests: Request[] }>('service_list_requests', { state: 'CLOSED' });
    expect(closedOnes.requests.map((request) => request.id)).not.toContain(byMcp.id);

    const cliList = await cliJson<{ requests: Request[] }>(['requests', 'ls', '--state', 'open']);
    expect(cliList.requests.map((request) => request.id)).toEqual(expect.arrayContaining([byMcp.id, byCli.id]));
    const page = await cliJson<{ requests: Request[]; nextCursor: string | null }>(['requests', 'ls', '--limit', '1']);
    expect(page.requests).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));

    expect(await ok('service_get_request', { requestId: byCli.id })).toEqual({ request: byCli });
    expect(await cliJson(['requests', 'show', byMcp.id])).toEqual({ request: byMcp });
    const shown = await runCli(['requests', 'show', byMcp.id], env);
    expect(shown.stdout).toContain(byMcp.url);
    expect(shown.stdout).toContain('ann@example.com');
  });

  it('lists the uploads and takes accept and reject through both doors; each sees the other’s decisions', async () => {
    const byMcp = await viaMcp(titled('Policies'));
    const byCli = await viaCli(titled('Letters'));
    for (const [request, names] of [
      [byMcp, ['keep.md', 'drop.md']],
      [byCli, ['letter.md', 'spam.md']],
    ] as const) {
      for (const name of names) expect(await uploadTo(request.url, name, `# ${name}\n`)).toBe(200);
    }

    const mcpUploads = await ok<{ uploads: Upload[]; nextCursor: string | null }>('service_request_uploads', {
      requestId: byMcp.id,
    });
    expect(mcpUploads.uploads.map((upload) => [upload.fileName, upload.review, upload.uploaderName])).toEqual([
      ['drop.md', 'PENDING', 'Ann Uploader'],
      ['keep.md', 'PENDING', 'Ann Uploader'],
    ]);
    expect(mcpUploads.nextCursor).toBeNull();
    const cliUploads = (await cliJson<{ uploads: Upload[] }>(['requests', 'uploads', byCli.id])).uploads;
    expect(cliUploads.map((upload) => upload.fileName)).toEqual(['spam.md', 'letter.md']);
    const [drop, keep] = mcpUploads.uploads as [Upload, Upload];
    const [spam, letter] = cliUploads as [Upload, Upload];

    // MCP: accept, the same again (nothing changes), reject; the other decision afterwards is a CONFLICT.
    const review = (requestId: string, uploadId: string, decision: string) =>
      call('service_review_upload', { requestId, uploadId, decision });
    for (let i = 0; i < 2; i++) {
      const accepted = await review(byMcp.id, keep.id, 'accept');
      expect(accepted.structuredContent).toEqual({ upload: { ...keep, review: 'ACCEPTED' } });
    }
    expect((await review(byMcp.id, drop.id, 'reject')).structuredContent).toMatchObject({ upload: { review: 'REJECTED' } });
    expect(refusal(await review(byMcp.id, drop.id, 'accept'))).toMatchObject({ code: 'CONFLICT', status: 409 });

    // CLI: the same, by its commands.
    expect(await cliJson(['requests', 'accept', byCli.id, letter.id])).toEqual({ upload: { ...letter, review: 'ACCEPTED' } });
    const rejected = await runCli(['requests', 'reject', byCli.id, spam.id], env);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toBe(`Rejected spam.md (${spam.id}): the file is in the trash.\n`);
    const again = await runCli(['requests', 'accept', byCli.id, spam.id, '--json'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(JSON.parse(again.stderr)).toMatchObject({ error: { code: 'CONFLICT', status: 409 } });

    // Each door reads the decisions the other made; rejected files are in the trash, accepted ones not.
    const seenByCli = (await cliJson<{ uploads: Upload[] }>(['requests', 'uploads', byMcp.id])).uploads;
    expect(seenByCli.map((upload) => [upload.fileName, upload.review])).toEqual([
      ['drop.md', 'REJECTED'],
      ['keep.md', 'ACCEPTED'],
    ]);
    const seenByMcp = await ok<{ uploads: Upload[]; nextCursor: string | null }>('service_request_uploads', {
      requestId: byCli.id,
      limit: 1,
    });
    expect(seenByMcp.uploads.map((upload) => [upload.fileName, upload.review])).toEqual([['spam.md', 'REJECTED']]);
    expect(seenByMcp.nextCursor).toEqual(expect.any(String));
    const rest = await ok<{ uploads: Upload[] }>('service_request_uploads', {
      requestId: byCli.id,
      cursor: seenByMcp.nextCursor,
    });
    expect(rest.uploads.map((upload) => [upload.fileName, upload.review])).toEqual([['letter.md', 'ACCEPTED']]);
    const trash = await unwrap(alice.api.GET('/api/v1/trash'));
    const trashed = trash.files.map((file) => file.id);
    expect(trashed).toEqual(expect.arrayContaining([drop.fileId, spam.fileId]));
    expect(trashed).not.toContain(keep.fileId);
    expect(trashed).not.toContain(letter.fileId);
  });

  it('closes through both doors for good: the page answers 410, the uploads stay, closing again keeps the first time', async () => {
    const byMcp = await viaMcp(titled('Closing by MCP'));
    const byCli = await viaCli(titled('Closing by CLI'));
    expect(await uploadTo(byCli.url, 'kept.md', '# Kept\n')).toBe(200);

    const closed = await ok<{ request: Request }>('service_close_request', { requestId: byMcp.id });
    expect(closed.request).toMatchObject({ id: byMcp.id, state: 'CLOSED', closedAt: expect.any(String) });
    const twice = await ok<{ request: Request }>('service_close_request', { requestId: byMcp.id });
    expect(twice.request.closedAt).toBe(closed.request.closedAt);

    const byCommand = await cliJson<{ request: Request }>(['requests', 'close', byCli.id]);
    expect(byCommand.request).toMatchObject({ state: 'CLOSED', uploadCount: 1 });
    const human = await runCli(['requests', 'close', byCli.id], env);
    expect(human.stdout).toBe(
      `Closed request “${byCli.title}” (${byCli.id}): its page now says it is closed. The upload it received stays.\n`,
    );
    expect((await cliJson<{ request: Request }>(['requests', 'show', byCli.id])).request.closedAt).toBe(
      byCommand.request.closedAt,
    );

    for (const request of [byMcp, byCli]) expect((await fetch(request.url)).status).toBe(410);
    expect(await uploadTo(byCli.url, 'late.md', '# Late\n')).toBe(410);
    expect((await ok<{ uploads: Upload[] }>('service_request_uploads', { requestId: byCli.id })).uploads).toHaveLength(1);
    const closedList = await cliJson<{ requests: Request[] }>(['requests', 'ls', '--state', 'CLOSED']);
    expect(closedList.requests.map((request) => request.id)).toEqual(expect.arrayContaining([byMcp.id, byCli.id]));
  });

  it("answers NOT_FOUND on both doors for another account's request and its uploads, and changes nothing of them", async () => {
    const theirs = await unwrap(bob.api.POST('/api/v1/requests', { body: { title: titled('Bob only') } }));
    expect(await uploadTo(theirs.url, 'bob.md', '# Bob\n')).toBe(200);
    const [upload] = (await uploadsOf(bob, theirs.request.id)) as [Upload];
    const requestId = theirs.request.id;

    const attempts: [string, Record<string, unknown>][] = [
      ['service_get_request', { requestId }],
      ['service_request_uploads', { requestId }],
      ['service_review_upload', { requestId, uploadId: upload.id, decision: 'accept' }],
      ['service_review_upload', { requestId, uploadId: upload.id, decision: 'reject' }],
      ['service_close_request', { requestId }],
    ];
    for (const [name, args] of attempts) {
      expect(refusal(await call(name, args)), name).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
    const listed = await ok<{ requests: Request[] }>('service_list_requests', {});
    expect(listed.requests.map((request) => request.id)).not.toContain(requestId);

    for (const args of [
      ['requests', 'show', requestId],
      ['requests', 'uploads', requestId],
      ['requests', 'accept', requestId, upload.id],
      ['requests', 'reject', requestId, upload.id],
      ['requests', 'close', requestId],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/^NOT_FOUND: /);
    }
    const cliList = await cliJson<{ requests: Request[] }>(['requests', 'ls']);
    expect(cliList.requests.map((request) => request.id)).not.toContain(requestId);

    const after = await unwrap(bob.api.GET('/api/v1/requests/{id}', { params: { path: { id: requestId } } }));
    expect(after.request).toMatchObject({ state: 'OPEN', closedAt: null, uploadCount: 1 });
    expect((await uploadsOf(bob, requestId)).map((row) => row.review)).toEqual(['PENDING']);
  });

  it('gives a read-only token FORBIDDEN on every write through both doors, and lets it read', async () => {
    const mine = await viaMcp(titled('Read-only target'));
    expect(await uploadTo(mine.url, 'pending.md', '# Pending\n')).toBe(200);
    const [upload] = (await uploadsOf(alice, mine.id)) as [Upload];
    const countBefore = (await ok<{ requests: Request[] }>('service_list_requests', { limit: 200 })).requests.length;

    const writes: [string, Record<string, unknown>][] = [
      ['service_create_request', { title: titled('Never made') }],
      ['service_close_request', { requestId: mine.id }],
      ['service_review_upload', { requestId: mine.id, uploadId: upload.id, decision: 'accept' }],
      ['service_review_upload', { requestId: mine.id, uploadId: upload.id, decision: 'reject' }],
    ];
    for (const [name, args] of writes) {
      const body = refusal(await callWith(readerMcp, name, args));
      expect(body, name).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(body.message).toContain('read-only');
    }
    const read = await callWith(readerMcp, 'service_get_request', { requestId: mine.id });
    expect(read.structuredContent).toMatchObject({ request: { id: mine.id, state: 'OPEN' } });
    const readUploads = await callWith(readerMcp, 'service_request_uploads', { requestId: mine.id });
    expect(readUploads.structuredContent).toMatchObject({ uploads: [{ id: upload.id, review: 'PENDING' }] });

    for (const args of [
      ['requests', 'create', titled('Never made')],
      ['requests', 'close', mine.id],
      ['requests', 'accept', mine.id, upload.id],
      ['requests', 'reject', mine.id, upload.id],
    ]) {
      const result = await runCli(args, readerEnv);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/^FORBIDDEN: [\s\S]*read-only/);
    }
    const readByCli = await runCli(['requests', 'uploads', mine.id, '--json'], readerEnv);
    expect(readByCli.code).toBe(0);
    expect((JSON.parse(readByCli.stdout) as { uploads: Upload[] }).uploads.map((row) => row.id)).toEqual([upload.id]);

    // Nothing changed: no new request, still open, the upload still waiting.
    expect((await ok<{ requests: Request[] }>('service_list_requests', { limit: 200 })).requests).toHaveLength(countBefore);
    expect(await ok('service_get_request', { requestId: mine.id })).toMatchObject({ request: { state: 'OPEN' } });
    expect((await uploadsOf(alice, mine.id)).map((row) => row.review)).toEqual(['PENDING']);
  });
});
