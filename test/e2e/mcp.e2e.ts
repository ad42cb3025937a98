import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, freePort, startApp, type RunningApp, type TestUser } from '../support/app.js';
import {
  MCP_BIN,
  baseEnv,
  connect,
  startHttpServer,
  type Connected,
  type HttpServer,
  type Transport,
} from '../support/mcp-server.js';

/** What each tool returns on success: the REST response bodies, with service_get's File wrapped as { file }. */
interface ToolResults {
  service_upload: Schemas['UploadResponseDto'];
  service_share: Schemas['CreatedShareDto'];
  service_revoke: Schemas['ShareEnvelopeDto'];
  service_get: Schemas['FileResponseDto'];
  service_list: Schemas['FileListDto'];
  service_validate: Schemas['ValidateResultDto'];
}

const TOOL_NAMES = ['service_upload', 'service_share', 'service_revoke', 'service_get', 'service_list', 'service_validate'];

function errorBody(result: CallToolResult): { code: string; status: number; message: string } {
  expect(result.isError).toBe(true);
  const text = result.content.find((part) => part.type === 'text');
  expect(text).toBeDefined();
  return JSON.parse((text as { text: string }).text);
}

function data<T>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  // The text content carries the same object as structuredContent, for clients without structured output.
  const text = result.content.find((part) => part.type === 'text') as { text: string };
  expect(JSON.parse(text.text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

describe('MCP tool server', () => {
  let app: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  describe.each<Transport>(['stdio', 'http'])('over %s', (transport) => {
    let connected: Connected;
    let call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
    const ok = async <K extends keyof ToolResults>(name: K, args: Record<string, unknown>) =>
      data<ToolResults[K]>(await call(name, args));
    const tag = `${transport}-${Date.now()}`;

    beforeAll(async () => {
      connected = await connect(transport, { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
      // Listing first makes the SDK client validate every structuredContent against the declared output schemas.
      await connected.client.listTools();
      call = async (name, args) => (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
    });
    afterAll(async () => connected?.close());

    it('identifies itself with the package name', () => {
      expect(connected.client.getServerVersion()).toMatchObject({ name: '@sharedown/mcp', version: expect.any(String) });
    });

    // mcp-tools.e2e.ts checks the whole list, with the tools added beside these six.
    it('lists the six tools with schemas, annotations and descriptions', async () => {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOL_NAMES));
      for (const tool of tools) {
        expect(tool.description!.length).toBeGreaterThan(80);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations).toMatchObject({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
        });
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(byName.service_upload!.inputSchema.required).toEqual(expect.arrayContaining(['content', 'name', 'kind']));
      expect(byName.service_upload!.inputSchema.required).not.toContain('folder');
      expect(byName.service_upload!.inputSchema.required).not.toContain('share');
      expect(Object.keys(byName.service_upload!.inputSchema.properties!)).toEqual(
        expect.arrayContaining(['content', 'name', 'kind', 'folder', 'share']),
      );
      // Exactly the spec's fileId (required) and options: a folder link is service_share_folder's.
      expect(byName.service_share!.inputSchema.required).toEqual(['fileId']);
      expect(Object.keys(byName.service_share!.inputSchema.properties!)).toEqual(['fileId', 'options']);
      expect(byName.service_revoke!.inputSchema.required).toEqual(['shareId']);
      expect(byName.service_get!.inputSchema.required).toEqual(['fileId']);
      expect(byName.service_list!.inputSchema.required ?? []).toEqual([]);
      expect(byName.service_validate!.inputSchema.required).toEqual(['content', 'kind']);
      expect(byName.service_revoke!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      for (const name of ['service_get', 'service_list', 'service_validate']) {
        expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      }
      const options = byName.service_share!.inputSchema.properties!.options as { properties: Record<string, unknown> };
      expect(Object.keys(options.properties)).toEqual(
        expect.arrayContaining([
          'expiresInDays',
          'password',
          'maxVisits',
          'oneTime',
          'slug',
          'emailAllowlist',
          'lockedVersionId',
        ]),
      );
    });

    it('service_validate normalizes and reports issues without storing anything', async () => {
      const clean = await ok('service_validate', { content: '# Title\r\n\tindented  \r\n', kind: 'MARKDOWN' });
      expect(clean).toMatchObject({ kind: 'MARKDOWN', ok: true, normalized: '# Title\n    indented\n' });
      const broken = await ok('service_validate', { content: '<div><span>x</div>', kind: 'HTML' });
      expect(broken.ok).toBe(false);
      expect(broken.issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            level: 'error',
            code: 'MISMATCHED_END_TAG',
            params: expect.objectContaining({ tag: 'div' }),
          }),
        ]),
      );
      const listed = await ok('service_list', {});
      expect(listed.files.filter((file) => file.name.startsWith(tag))).toEqual([]);
    });

    it('service_upload, service_get, service_list, service_share and service_revoke drive the REST API', async () => {
      const uploaded = await ok('service_upload', { content: '# Hello\n', name: `${tag}-notes`, kind: 'MARKDOWN' });
      expect(uploaded.file).toMatchObject({ name: `${tag}-notes.md`, kind: 'MARKDOWN', sizeBytes: 8 });
      expect(uploaded.share).toBeUndefined();
      expect(uploaded.url).toBeUndefined();

      const fetched = await ok('service_get', { fileId: uploaded.file.id });
      expect(fetched.file).toMatchObject({ id: uploaded.file.id, name: `${tag}-notes.md`, scanStatus: expect.any(String) });

      const listed = await ok('service_list', {});
      expect(listed.files.map((file) => file.id)).toContain(uploaded.file.id);

      const shared = await ok('service_share', {
        fileId: uploaded.file.id,
        options: { password: 'secret-pw', maxVisits: 3, expiresInDays: 7 },
      });
      expect(shared.share).toMatchObject({ fileId: uploaded.file.id, hasPassword: true, maxVisits: 3, visitCount: 0 });
      expect(shared.url).toBe(`${app.baseUrl}/s/${alice.segment}/${shared.share.token}`);
      const direct = await alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: shared.share.id } } });
      expect(direct.data).toMatchObject({ id: shared.share.id, revokedAt: null });

      const revoked = await ok('service_revoke', { shareId: shared.share.id });
      expect(revoked.share).toMatchObject({ id: shared.share.id, revokedAt: expect.any(String) });
      const after = await alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: shared.share.id } } });
      expect(after.data!.revokedAt).toEqual(expect.any(String));
    });

    it('service_upload with share creates the link in the same call', async () => {
      const result = await ok('service_upload', {
        content: '<h1>Hi</h1>',
        name: `${tag}-page.html`,
        kind: 'HTML',
        share: { oneTime: true },
      });
      expect(result.file).toMatchObject({ name: `${tag}-page.html`, kind: 'HTML' });
      expect(result.share).toMatchObject({ fileId: result.file.id, oneTime: true });
      expect(result.url).toBe(`${app.baseUrl}/s/${alice.segment}/${result.share!.token}`);
    });

    it('maps API errors to { code, status, message }', async () => {
      expect(errorBody(await call('service_get', { fileId: 'no-such-file' }))).toEqual({
        code: 'NOT_FOUND',
        status: 404,
        message: expect.any(String),
      });
      expect(errorBody(await call('service_revoke', { shareId: 'no-such-share' }))).toMatchObject({
        code: 'NOT_FOUND',
        status: 404,
      });

      const name = `${tag}-dup.txt`;
      await ok('service_upload', { content: 'one', name, kind: 'TEXT' });
      expect(errorBody(await call('service_upload', { content: 'two', name, kind: 'TEXT' }))).toMatchObject({
        code: 'DUPLICATE',
        status: 409,
      });

      const target = await ok('service_upload', { content: 'x', name: `${tag}-slug.txt`, kind: 'TEXT' });
      const slug = `s${tag.replace(/[^A-Za-z0-9]/g, '').slice(-20)}`;
      await ok('service_share', { fileId: target.file.id, options: { slug } });
      expect(errorBody(await call('service_share', { fileId: target.file.id, options: { slug } }))).toMatchObject({
        code: 'SLUG_TAKEN',
        status: 409,
      });
    });

    it('refuses a name whose extension contradicts the kind, like the API would', async () => {
      expect(errorBody(await call('service_upload', { content: 'x', name: `${tag}.md`, kind: 'HTML' }))).toMatchObject({
        code: 'VALIDATION',
        status: 400,
      });
    });

    it('rejects arguments outside the input schema before calling the API', async () => {
      const result = (await connected.client.callTool({
        name: 'service_share',
        arguments: { fileId: 'x', options: { maxVisits: 0 } },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/maxVisits/);
    });
  });

  describe.each<Transport>(['stdio', 'http'])('error mapping over %s', (transport) => {
    it('a bad token gives UNAUTHENTICATED with status 401', async () => {
      const connected = await connect(transport, {
        SHAREDOWN_URL: app.baseUrl,
        SHAREDOWN_TOKEN: 'shd_aaaaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      });
      try {
        await connected.client.listTools();
        const result = (await connected.client.callTool({ name: 'service_list', arguments: {} })) as CallToolResult;
        expect(errorBody(result)).toEqual({ code: 'UNAUTHENTICATED', status: 401, message: expect.any(String) });
      } finally {
        await connected.close();
      }
    });

    it('an unreachable service gives UNAVAILABLE', async () => {
      const closedPort = await freePort();
      const connected = await connect(transport, {
        SHAREDOWN_URL: `http://127.0.0.1:${closedPort}`,
        SHAREDOWN_TOKEN: alice.token,
      });
      try {
        await connected.client.listTools();
        const result = (await connected.client.callTool({
          name: 'service_validate',
          arguments: { content: 'x', kind: 'TEXT' },
        })) as CallToolResult;
        const body = errorBody(result);
        expect(body).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
        expect(body.message).toContain(`127.0.0.1:${closedPort}`);
      } finally {
        await connected.close();
      }
    });
  });

  describe('rate limiting', () => {
    it('a 429 from the API keeps its code and says when to retry', async () => {
      const limited = await createUser(app.baseUrl, { rateLimitPerMinute: 1 });
      const connected = await connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: limited.token });
      try {
        await connected.client.callTool({ name: 'service_list', arguments: {} });
        const body = errorBody((await connected.client.callTool({ name: 'service_list', arguments: {} })) as CallToolResult);
        expect(body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
        expect(body.message).toMatch(/retry after \d+ s/);
      } finally {
        await connected.close();
      }
    });
  });

  describe('HTTP transport', () => {
    let server: HttpServer;

    const ALLOWED = 'https://agent.example.com';

    beforeAll(async () => {
      server = await startHttpServer({
        SHAREDOWN_URL: app.baseUrl,
        SHAREDOWN_TOKEN: alice.token,
        MCP_ALLOWED_ORIGINS: `${ALLOWED}, http://localhost:5173`,
      });
    });
    afterAll(async () => server?.stop());

    it('GET /healthz answers { ok: true, server: <package name> }', async () => {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, server: '@sharedown/mcp' });
    });

    it('serves many clients from one process, statelessly', async () => {
      const clients = await Promise.all(
        [1, 2].map(async () => {
          const client = new Client({ name: 'parallel', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
          return client;
        }),
      );
      const results = await Promise.all(
        clients.map((client) => client.callTool({ name: 'service_validate', arguments: { content: 'a\tb', kind: 'TEXT' } })),
      );
      for (const result of results) expect(result.structuredContent).toMatchObject({ normalized: 'a    b' });
      await Promise.all(clients.map((client) => client.close()));
    });

    it('refuses foreign Host headers on a loopback listener (DNS rebinding)', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/mcp`, {
          method: 'POST',
          headers: { Host: 'attacker.example', 'Content-Type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end('{}');
      });
      expect(status).toBe(403);
    });

    it('refuses a browser page of a foreign Origin with 403 and a JSON-RPC error, before any tool runs', async () => {
      for (const origin of ['https://attacker.example', 'null', `https://${new URL(server.url).host}`]) {
        const response = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'service_upload', arguments: { content: 'x', name: 'from-a-page.txt', kind: 'TEXT' } },
          }),
        });
        expect(response.status, origin).toBe(403);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(await response.json()).toEqual({
          jsonrpc: '2.0',
          error: { code: -32000, message: expect.stringContaining(origin) },
          id: null,
        });
      }
      const files = await alice.api.GET('/api/v1/files');
      expect(files.data!.files.map((file) => file.name)).not.toContain('from-a-page.txt');
      const client = new Client({ name: 'foreign-page', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Origin: 'https://attacker.example' } },
      });
      await expect(client.connect(transport)).rejects.toThrow(/403|Origin not allowed/);
      await client.close();
    });

    it.each([
      ['its own origin', (url: string) => new URL(url).origin],
      ['an origin of MCP_ALLOWED_ORIGINS', () => ALLOWED],
      ['no Origin (a client that is not a browser page)', () => undefined],
    ])('serves a request from %s', async (_what, originOf) => {
      const origin = originOf(server.url);
      const client = new Client({ name: 'origin-check', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: origin ? { headers: { Origin: origin } } : {},
        }),
      );
      try {
        const result = await client.callTool({ name: 'service_validate', arguments: { content: 'a\tb', kind: 'TEXT' } });
        expect(result.structuredContent).toMatchObject({ normalized: 'a    b' });
      } finally {
        await client.close();
      }
    });

    it('answers 405 for GET /mcp and 404 elsewhere', async () => {
      expect((await fetch(`${server.url}/mcp`)).status).toBe(405);
      expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    });
  });

  describe('configuration', () => {
    function runBin(
      args: string[],
      env: Record<string, string>,
    ): Promise<{ code: number | null; stderr: string; stdout: string }> {
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [MCP_BIN, ...args], {
          env: { ...baseEnv(), ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end();
      });
    }

    it.each([[[]], [['--http']]])('exits non-zero naming the missing variables (%j)', async (args) => {
      const result = await runBin(args, {});
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('SHAREDOWN_URL');
      expect(result.stderr).toContain('SHAREDOWN_TOKEN');
      expect(result.stdout).toBe('');
    });

    it('refuses a malformed URL and PORT', async () => {
      const result = await runBin(['--http'], { SHAREDOWN_URL: 'ftp://x', SHAREDOWN_TOKEN: 't', PORT: 'eighty' });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/SHAREDOWN_URL must be an http\(s\) address/);
      expect(result.stderr).toMatch(/PORT must be an integer/);
    });

    it('refuses a malformed MCP_ALLOWED_ORIGINS at start, naming the key', async () => {
      const result = await runBin(['--http'], {
        SHAREDOWN_URL: app.baseUrl,
        SHAREDOWN_TOKEN: alice.token,
        PORT: '0',
        MCP_ALLOWED_ORIGINS: 'https://agent.example.com,agent.example.com/app',
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('MCP_ALLOWED_ORIGINS must list origins');
      expect(result.stderr).toContain('"agent.example.com/app"');
    });

    it('rejects unknown flags with a usage message', async () => {
      const result = await runBin(['--bogus'], {});
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: sharedown-mcp');
    });

    it('says which address is taken instead of printing a stack when --http cannot listen', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as AddressInfo).port;
      try {
        const result = await runBin(['--http'], { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token, PORT: String(port) });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: it is in use`);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });

    it('stdio exits cleanly when the client closes stdin', async () => {
      const result = await runBin([], { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    });
  });
});
