import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer } from '../server.js';

const SHARE = {
  id: 's1',
  token: 'tok',
  hasPassword: false,
  visitCount: 0,
  uniqueVisitCount: 0,
  oneTime: false,
};

/** The tool server on an in-memory transport, its service a fetch stub that records each request. */
async function connected(answer: (request: Request) => unknown) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const body = input.method === 'GET' ? undefined : await input.clone().json();
      requests.push({ method: input.method, path: new URL(input.url).pathname, body });
      return Response.json(answer(input), { status: input.method === 'POST' ? 201 : 200 });
    }),
  );
  const server = createServer({ url: 'http://sharedown.test', token: 'shd_unit_test' });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call, requests, close: () => client.close() };
}

const textOf = (result: CallToolResult) => (result.content.find((part) => part.type === 'text') as { text: string }).text;

describe('the share tools', () => {
  let tools: Record<string, Tool>;
  let session: Awaited<ReturnType<typeof connected>>;

  beforeEach(async () => {
    session = await connected((request) =>
      request.method === 'POST' ? { share: SHARE, url: 'http://sharedown.test/s/o/tok' } : { ...SHARE, maxVisits: 5 },
    );
    tools = Object.fromEntries((await session.client.listTools()).tools.map((tool) => [tool.name, tool]));
  });
  afterEach(async () => {
    await session.close();
    vi.unstubAllGlobals();
  });

  it("service_share keeps the spec's input: fileId (required) and options, nothing else", () => {
    const input = tools.service_share!.inputSchema;
    expect(input.required).toEqual(['fileId']);
    expect(Object.keys(input.properties!)).toEqual(['fileId', 'options']);
  });

  it('service_share_folder takes folderId (required) and the options of service_share but the version pin', () => {
    const input = tools.service_share_folder!.inputSchema;
    expect(input.required).toEqual(['folderId']);
    expect(Object.keys(input.properties!)).toEqual(['folderId', 'options']);
    const fileOptions = Object.keys((tools.service_share!.inputSchema.properties!.options as Tool['inputSchema']).properties!);
    const folderOptions = Object.keys((input.properties!.options as Tool['inputSchema']).properties!);
    expect(folderOptions).toEqual(fileOptions.filter((name) => name !== 'lockedVersionId'));
  });

  it("service_update_share takes shareId and options, service_share's options less what a live link keeps", () => {
    const input = tools.service_update_share!.inputSchema;
    expect(input.required).toEqual(['shareId', 'options']);
    expect(Object.keys(input.properties!)).toEqual(['shareId', 'options']);
    expect(input.additionalProperties).toBe(false);
    const shareOptions = Object.keys((tools.service_share!.inputSchema.properties!.options as Tool['inputSchema']).properties!);
    const updateOptions = Object.keys((input.properties!.options as Tool['inputSchema']).properties!);
    expect(updateOptions).toEqual(shareOptions.filter((name) => !['oneTime', 'slug', 'lockedVersionId'].includes(name)));
  });

  it('service_share posts the file and its options', async () => {
    const result = await session.call('service_share', { fileId: 'f1', options: { maxVisits: 3, notify: 'every' } });
    expect(result.isError).toBeFalsy();
    expect(session.requests).toEqual([
      { method: 'POST', path: '/api/v1/shares', body: { maxVisits: 3, notify: 'every', fileId: 'f1' } },
    ]);
  });

  it('service_share_folder posts the folder and its options to the same route', async () => {
    const result = await session.call('service_share_folder', { folderId: 'd1', options: { password: 'secret-pw' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ share: { id: 's1' }, url: 'http://sharedown.test/s/o/tok' });
    expect(session.requests).toEqual([
      { method: 'POST', path: '/api/v1/shares', body: { password: 'secret-pw', folderId: 'd1' } },
    ]);
  });

  it.each([
    ['service_share', { folderId: 'd1' }, 'fileId'],
    ['service_share_folder', { folderId: 'd1', options: { lockedVersionId: 'v1' } }, 'lockedVersionId'],
    ['service_update_share', { shareId: 's1', maxVisits: 5 }, 'maxVisits'],
    ['service_update_share', { shareId: 's1', options: { maxVisits: 5 }, password: null }, 'password'],
    ['service_update_share', { shareId: 's1', options: { slug: 'new-name' } }, 'slug'],
  ])('%s refuses %j by name before calling the service', async (tool, args, field) => {
    const result = await session.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error/);
    expect(textOf(result)).toContain(field);
    expect(session.requests).toEqual([]);
  });

  it('service_update_share patches exactly the options given, null included', async () => {
    const result = await session.call('service_update_share', { shareId: 's1', options: { maxVisits: 5, password: null } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ share: { id: 's1', maxVisits: 5 } });
    expect(session.requests).toEqual([{ method: 'PATCH', path: '/api/v1/shares/s1', body: { maxVisits: 5, password: null } }]);
  });

  it('service_update_share refuses options that change nothing with VALIDATION', async () => {
    const result = await session.call('service_update_share', { shareId: 's1', options: {} });
    expect(JSON.parse(textOf(result))).toMatchObject({ code: 'VALIDATION', status: 400 });
    expect(session.requests).toEqual([]);
  });
});
