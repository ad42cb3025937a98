import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer } from '../server.js';

const REQUEST_ID = '5b0f4c57-2f2f-4d51-9a43-6f7d3f1c0a01';
const UPLOAD_ID = '9c1e0a6b-7d0e-4f1d-8a1b-2c3d4e5f6a7b';

const REQUEST = {
  id: REQUEST_ID,
  title: 'Signed policies',
  instructions: '',
  folderId: 'd1',
  maxUploads: 10,
  maxBytes: 10485760,
  expiresAt: null,
  hasPassword: false,
  emailAllowlist: null,
  state: 'OPEN',
  uploadCount: 0,
  url: 'http://sharedown.test/r/owner/tok',
  notify: 'every',
  createdAt: '2026-05-01T10:00:00.000Z',
  closedAt: null,
};

const UPLOAD = {
  id: UPLOAD_ID,
  fileId: 'f1',
  fileName: 'policy.md',
  sizeBytes: 12,
  scanStatus: 'CLEAN',
  review: 'PENDING',
  uploaderName: 'Ann',
  uploaderEmail: null,
  message: '',
  at: '2026-05-01T11:00:00.000Z',
};

const SIX = [
  'service_create_request',
  'service_list_requests',
  'service_get_request',
  'service_close_request',
  'service_request_uploads',
  'service_review_upload',
];

/** What the service answers each route with: the shapes of the contract. */
function answerOf(request: Request): { status: number; body: unknown } {
  const { pathname } = new URL(request.url);
  if (pathname.endsWith('/accept')) return { status: 200, body: { upload: { ...UPLOAD, review: 'ACCEPTED' } } };
  if (pathname.endsWith('/reject')) return { status: 200, body: { upload: { ...UPLOAD, review: 'REJECTED' } } };
  if (pathname.endsWith('/uploads')) return { status: 200, body: { uploads: [UPLOAD], nextCursor: null } };
  if (pathname === '/api/v1/requests' && request.method === 'POST') {
    return { status: 200, body: { request: REQUEST, url: REQUEST.url } };
  }
  if (pathname === '/api/v1/requests') return { status: 200, body: { requests: [REQUEST], nextCursor: 'next-page' } };
  if (request.method === 'DELETE') {
    return { status: 200, body: { request: { ...REQUEST, state: 'CLOSED', closedAt: '2026-05-02T10:00:00.000Z' } } };
  }
  return { status: 200, body: { request: REQUEST } };
}

/** The tool server on an in-memory transport, its service a fetch stub that records each request. */
async function connected(answer: (request: Request) => { status: number; body: unknown } = answerOf) {
  const requests: { method: string; path: string; query: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const text = input.method === 'GET' ? '' : await input.clone().text();
      const url = new URL(input.url);
      requests.push({ method: input.method, path: url.pathname, query: url.search, body: text ? JSON.parse(text) : undefined });
      const { status, body } = answer(input);
      return Response.json(body, { status });
    }),
  );
  const server = createServer({ url: 'http://sharedown.test', token: 'shd_unit_test' });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // Listing first makes the client check every structuredContent against the declared output schemas.
  const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool])) as Record<string, Tool>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { tools, call, requests, close: () => client.close() };
}

const textOf = (result: CallToolResult) => (result.content.find((part) => part.type === 'text') as { text: string }).text;

// The OpenAPI document the api writes: the create tool takes exactly the body the service takes.
const document = createRequire(import.meta.url)('@sharedown/contract/openapi.json') as {
  components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
};

describe('the document request tools', () => {
  let session: Awaited<ReturnType<typeof connected>>;

  beforeEach(async () => {
    session = await connected();
  });
  afterEach(async () => {
    await session.close();
    vi.unstubAllGlobals();
  });

  it('are offered with the inputs the issue names', () => {
    expect(SIX.filter((name) => !session.tools[name])).toEqual([]);
    const create = session.tools.service_create_request!.inputSchema;
    expect(Object.keys(create.properties!).sort()).toEqual(
      Object.keys(document.components.schemas.CreateRequestDto!.properties).sort(),
    );
    expect(create.required).toEqual(['title']);
    expect(create.additionalProperties).toBe(false);
    const keys = (name: string) => Object.keys(session.tools[name]!.inputSchema.properties!);
    expect(keys('service_list_requests')).toEqual(['state', 'limit', 'cursor']);
    expect(keys('service_get_request')).toEqual(['requestId']);
    expect(keys('service_close_request')).toEqual(['requestId']);
    expect(keys('service_request_uploads')).toEqual(['requestId', 'limit', 'cursor']);
    expect(keys('service_review_upload')).toEqual(['requestId', 'uploadId', 'decision']);
    expect(session.tools.service_review_upload!.inputSchema.required).toEqual(['requestId', 'uploadId', 'decision']);
  });

  it('declare honest annotations: reads are read-only, closing and rejecting cannot be undone, creating is not idempotent', () => {
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = session.tools[name]!.annotations!;
      return [readOnlyHint, destructiveHint, idempotentHint, openWorldHint];
    };
    expect(hints('service_create_request')).toEqual([false, false, false, false]);
    for (const name of ['service_list_requests', 'service_get_request', 'service_request_uploads']) {
      expect(hints(name), name).toEqual([true, false, true, false]);
    }
    expect(hints('service_close_request')).toEqual([false, true, true, false]);
    expect(hints('service_review_upload')).toEqual([false, true, true, false]);
    for (const name of SIX) expect(session.tools[name]!.outputSchema?.type, name).toBe('object');
  });

  it('service_create_request posts its arguments as the body, null kept', async () => {
    const args = {
      title: 'Signed policies',
      instructions: 'Both **policies**, please.',
      folderId: 'd1',
      maxUploads: 3,
      maxBytes: 1000,
      expiresInDays: null,
      password: 'secret-pw',
      emailAllowlist: ['ann@example.com'],
      notify: 'daily',
    };
    const result = await session.call('service_create_request', args);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ request: REQUEST, url: REQUEST.url });
    expect(session.requests).toEqual([{ method: 'POST', path: '/api/v1/requests', query: '', body: args }]);
  });

  it.each([
    [{ instructions: 'no title' }, 'title'],
    [{ title: 'x', maxUpload: 3 }, 'maxUpload'],
    [{ title: 'x', maxUploads: 1001 }, 'maxUploads'],
    [{ title: 'x', emailAllowlist: ['not an address'] }, 'emailAllowlist'],
    [{ title: 'x', notify: 'hourly' }, 'notify'],
  ])('service_create_request refuses %j by name before calling the service', async (args, field) => {
    const result = await session.call('service_create_request', args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error/);
    expect(textOf(result)).toContain(field);
    expect(session.requests).toEqual([]);
  });

  it('service_list_requests sends the state and the page, and answers the page with its cursor', async () => {
    const result = await session.call('service_list_requests', { state: 'OPEN', limit: 5, cursor: 'abc' });
    expect(result.structuredContent).toEqual({ requests: [REQUEST], nextCursor: 'next-page' });
    expect(session.requests).toEqual([
      { method: 'GET', path: '/api/v1/requests', query: '?state=OPEN&limit=5&cursor=abc', body: undefined },
    ]);
    const unknown = await session.call('service_list_requests', { state: 'open' });
    expect(unknown.isError).toBe(true);
    expect(session.requests).toHaveLength(1);
  });

  it('service_get_request, service_close_request and service_request_uploads call their routes', async () => {
    expect((await session.call('service_get_request', { requestId: REQUEST_ID })).structuredContent).toEqual({
      request: REQUEST,
    });
    const closed = await session.call('service_close_request', { requestId: REQUEST_ID });
    expect(closed.structuredContent).toMatchObject({ request: { state: 'CLOSED' } });
    const uploads = await session.call('service_request_uploads', { requestId: REQUEST_ID, limit: 20 });
    expect(uploads.structuredContent).toEqual({ uploads: [UPLOAD], nextCursor: null });
    expect(session.requests.map(({ method, path, query }) => `${method} ${path}${query}`)).toEqual([
      `GET /api/v1/requests/${REQUEST_ID}`,
      `DELETE /api/v1/requests/${REQUEST_ID}`,
      `GET /api/v1/requests/${REQUEST_ID}/uploads?limit=20`,
    ]);
  });

  it('service_review_upload calls accept or reject by its decision, and nothing for another word', async () => {
    const accepted = await session.call('service_review_upload', {
      requestId: REQUEST_ID,
      uploadId: UPLOAD_ID,
      decision: 'accept',
    });
    expect(accepted.structuredContent).toMatchObject({ upload: { id: UPLOAD_ID, review: 'ACCEPTED' } });
    const rejected = await session.call('service_review_upload', {
      requestId: REQUEST_ID,
      uploadId: UPLOAD_ID,
      decision: 'reject',
    });
    expect(rejected.structuredContent).toMatchObject({ upload: { review: 'REJECTED' } });
    const other = await session.call('service_review_upload', { requestId: REQUEST_ID, uploadId: UPLOAD_ID, decision: 'delete' });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('decision');
    expect(session.requests).toEqual([
      { method: 'POST', path: `/api/v1/requests/${REQUEST_ID}/uploads/${UPLOAD_ID}/accept`, query: '', body: undefined },
      { method: 'POST', path: `/api/v1/requests/${REQUEST_ID}/uploads/${UPLOAD_ID}/reject`, query: '', body: undefined },
    ]);
  });
});

describe('the document request tools when the service refuses', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("answer the service's error as { code, status, message }; a write with a read-only token says so", async () => {
    const session = await connected((request) =>
      request.method === 'GET'
        ? { status: 404, body: { code: 'NOT_FOUND', error: '文档请求不存在' } }
        : { status: 403, body: { code: 'FORBIDDEN', error: '令牌没有写入权限' } },
    );
    try {
      const missing = await session.call('service_get_request', { requestId: REQUEST_ID });
      expect(missing.isError).toBe(true);
      expect(missing.structuredContent).toBeUndefined();
      expect(JSON.parse(textOf(missing))).toEqual({ code: 'NOT_FOUND', status: 404, message: '文档请求不存在' });
      const refused = await session.call('service_close_request', { requestId: REQUEST_ID });
      const body = JSON.parse(textOf(refused)) as { code: string; status: number; message: string };
      expect(body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(body.message).toContain('read-only');
      expect(body.message).toContain('document requests');
    } finally {
      await session.close();
    }
  });
});
