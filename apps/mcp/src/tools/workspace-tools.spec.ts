import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer } from '../server.js';

const MEMBER_ID = '1f0e4c57-2f2f-4d51-9a43-6f7d3f1c0a02';
const INVITATION_ID = '7a2b0c6b-7d0e-4f1d-8a1b-2c3d4e5f6a70';

const WORKSPACE = {
  id: '0b9e4c57-2f2f-4d51-9a43-6f7d3f1c0a00',
  name: 'Sales',
  segment: 'sales',
  personal: false,
  role: 'ADMIN',
  quotaBytes: 104857600,
  usedBytes: 2048,
  memberCount: 2,
};

const MEMBER = { userId: MEMBER_ID, email: 'bob@example.com', role: 'EDITOR', joinedAt: '2026-05-01T10:00:00.000Z' };

const INVITATION = {
  id: INVITATION_ID,
  email: 'carol@example.com',
  role: 'VIEWER',
  createdAt: '2026-05-01T10:00:00.000Z',
  expiresAt: '2026-05-08T10:00:00.000Z',
};
const INVITATION_URL = 'http://sharedown.test/invitations/secret';

const SEVEN = [
  'service_workspace',
  'service_members',
  'service_invite',
  'service_set_role',
  'service_remove_member',
  'service_list_invitations',
  'service_revoke_invitation',
];

/** What the service answers each route with: the shapes of the contract (204 without a body for a removal). */
function answerOf(request: Request): { status: number; body?: unknown } {
  const { pathname } = new URL(request.url);
  if (pathname === '/api/v1/workspace') return { status: 200, body: { workspace: WORKSPACE } };
  if (pathname === '/api/v1/workspace/members') return { status: 200, body: { members: [MEMBER], nextCursor: 'next-page' } };
  if (pathname.startsWith('/api/v1/workspace/members/')) {
    return request.method === 'DELETE' ? { status: 204 } : { status: 200, body: { member: { ...MEMBER, role: 'VIEWER' } } };
  }
  if (pathname === '/api/v1/workspace/invitations') {
    return request.method === 'POST'
      ? { status: 200, body: { invitation: INVITATION, url: INVITATION_URL } }
      : { status: 200, body: { invitations: [INVITATION], nextCursor: null } };
  }
  return { status: 200, body: { invitation: INVITATION } };
}

/** The tool server on an in-memory transport, its service a fetch stub that records each request. */
async function connected(answer: (request: Request) => { status: number; body?: unknown } = answerOf) {
  const requests: { method: string; path: string; query: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const text = input.method === 'GET' ? '' : await input.clone().text();
      const url = new URL(input.url);
      requests.push({ method: input.method, path: url.pathname, query: url.search, body: text ? JSON.parse(text) : undefined });
      const { status, body } = answer(input);
      return body === undefined ? new Response(null, { status }) : Response.json(body, { status });
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

describe('the workspace tools', () => {
  let session: Awaited<ReturnType<typeof connected>>;

  beforeEach(async () => {
    session = await connected();
  });
  afterEach(async () => {
    await session.close();
    vi.unstubAllGlobals();
  });

  it('are offered with the inputs the issue names', () => {
    expect(SEVEN.filter((name) => !session.tools[name])).toEqual([]);
    const keys = (name: string) => Object.keys(session.tools[name]!.inputSchema.properties ?? {});
    const required = (name: string) => session.tools[name]!.inputSchema.required ?? [];
    expect(keys('service_workspace')).toEqual([]);
    expect(keys('service_members')).toEqual(['cursor']);
    expect(required('service_members')).toEqual([]);
    expect(keys('service_invite')).toEqual(['email', 'role']);
    expect(required('service_invite')).toEqual(['email', 'role']);
    expect(session.tools.service_invite!.inputSchema.additionalProperties).toBe(false);
    expect(keys('service_set_role')).toEqual(['userId', 'role']);
    expect(required('service_set_role')).toEqual(['userId', 'role']);
    expect(keys('service_remove_member')).toEqual(['userId']);
    expect(keys('service_list_invitations')).toEqual([]);
    expect(keys('service_revoke_invitation')).toEqual(['invitationId']);
    const roles = (name: string) => (session.tools[name]!.inputSchema.properties!.role as { enum: string[] }).enum;
    expect(roles('service_invite')).toEqual(['OWNER', 'ADMIN', 'EDITOR', 'VIEWER']);
    expect(roles('service_set_role')).toEqual(['OWNER', 'ADMIN', 'EDITOR', 'VIEWER']);
  });

  it('declare honest annotations: reads are read-only, removing and revoking cannot be undone, inviting is not idempotent', () => {
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = session.tools[name]!.annotations!;
      return [readOnlyHint, destructiveHint, idempotentHint, openWorldHint];
    };
    for (const name of ['service_workspace', 'service_members', 'service_list_invitations']) {
      expect(hints(name), name).toEqual([true, false, true, false]);
    }
    expect(hints('service_invite')).toEqual([false, false, false, false]);
    expect(hints('service_set_role')).toEqual([false, false, true, false]);
    expect(hints('service_remove_member')).toEqual([false, true, true, false]);
    expect(hints('service_revoke_invitation')).toEqual([false, true, true, false]);
    for (const name of SEVEN) expect(session.tools[name]!.outputSchema?.type, name).toBe('object');
  });

  it('service_workspace and service_members read their routes; the cursor is passed on', async () => {
    expect((await session.call('service_workspace', {})).structuredContent).toEqual({ workspace: WORKSPACE });
    const first = await session.call('service_members', {});
    expect(first.structuredContent).toEqual({ members: [MEMBER], nextCursor: 'next-page' });
    await session.call('service_members', { cursor: 'next-page' });
    expect(session.requests.map(({ method, path, query }) => `${method} ${path}${query}`)).toEqual([
      'GET /api/v1/workspace',
      'GET /api/v1/workspace/members',
      'GET /api/v1/workspace/members?cursor=next-page',
    ]);
  });

  it('service_invite posts its arguments as the body and answers the invitation with its link', async () => {
    const result = await session.call('service_invite', { email: 'carol@example.com', role: 'VIEWER' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ invitation: INVITATION, url: INVITATION_URL });
    expect(session.requests).toEqual([
      { method: 'POST', path: '/api/v1/workspace/invitations', query: '', body: { email: 'carol@example.com', role: 'VIEWER' } },
    ]);
  });

  it.each([
    ['service_invite', { email: 'not an address', role: 'EDITOR' }, 'email'],
    ['service_invite', { email: 'carol@example.com', role: 'editor' }, 'role'],
    ['service_invite', { email: 'carol@example.com', role: 'EDITOR', days: 3 }, 'days'],
    ['service_invite', { email: 'carol@example.com' }, 'role'],
    ['service_set_role', { userId: MEMBER_ID, role: 'MEMBER' }, 'role'],
    ['service_set_role', { role: 'VIEWER' }, 'userId'],
    ['service_remove_member', { userId: '' }, 'userId'],
    ['service_revoke_invitation', {}, 'invitationId'],
  ])('%s refuses %j by name before calling the service', async (name, args, field) => {
    const result = await session.call(name, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error/);
    expect(textOf(result)).toContain(field);
    expect(session.requests).toEqual([]);
  });

  it('service_set_role patches the role; service_remove_member answers what it removed on a 204', async () => {
    const changed = await session.call('service_set_role', { userId: MEMBER_ID, role: 'VIEWER' });
    expect(changed.structuredContent).toEqual({ member: { ...MEMBER, role: 'VIEWER' } });
    const removed = await session.call('service_remove_member', { userId: MEMBER_ID });
    expect(removed.isError).toBeFalsy();
    expect(removed.structuredContent).toEqual({ removed: true, userId: MEMBER_ID });
    expect(session.requests).toEqual([
      { method: 'PATCH', path: `/api/v1/workspace/members/${MEMBER_ID}`, query: '', body: { role: 'VIEWER' } },
      { method: 'DELETE', path: `/api/v1/workspace/members/${MEMBER_ID}`, query: '', body: undefined },
    ]);
  });

  it('service_list_invitations and service_revoke_invitation call their routes', async () => {
    expect((await session.call('service_list_invitations', {})).structuredContent).toEqual({
      invitations: [INVITATION],
      nextCursor: null,
    });
    expect((await session.call('service_revoke_invitation', { invitationId: INVITATION_ID })).structuredContent).toEqual({
      invitation: INVITATION,
    });
    expect(session.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /api/v1/workspace/invitations',
      `DELETE /api/v1/workspace/invitations/${INVITATION_ID}`,
    ]);
  });
});

describe('the workspace tools when the service refuses', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("answer the service's error as { code, status, message }; FORBIDDEN names the role as well as the scope", async () => {
    const session = await connected((request) =>
      request.method === 'DELETE'
        ? { status: 404, body: { code: 'NOT_FOUND', error: '成员不存在' } }
        : { status: 403, body: { code: 'FORBIDDEN', error: '只有所有者和管理员可以管理成员和邀请' } },
    );
    try {
      const missing = await session.call('service_remove_member', { userId: MEMBER_ID });
      expect(missing.isError).toBe(true);
      expect(missing.structuredContent).toBeUndefined();
      expect(JSON.parse(textOf(missing))).toEqual({ code: 'NOT_FOUND', status: 404, message: '成员不存在' });
      const refused = await session.call('service_invite', { email: 'carol@example.com', role: 'EDITOR' });
      const body = JSON.parse(textOf(refused)) as { code: string; status: number; message: string };
      expect(body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(body.message).toContain('只有所有者和管理员可以管理成员和邀请');
      expect(body.message).toContain('only an OWNER or ADMIN manages members and invitations');
    } finally {
      await session.close();
    }
  });
});
