import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { connect, type Connected } from '../support/mcp-server.js';

type Workspace = Schemas['WorkspaceDto'];
type Member = Schemas['MemberDto'];
type Invitation = Schemas['InvitationDto'];

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const HEADER = 'x-sharedown-workspace';

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

const textOf = (result: CallToolResult) => (result.content.find((part) => part.type === 'text') as { text: string }).text;

/** The `{ code, status, message }` of a failed tool call. */
function refusal(result: CallToolResult): { code: string; status: number; message: string } {
  expect(result.isError, textOf(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse(textOf(result)) as { code: string; status: number; message: string };
}

let segments = 0;
/** A segment of its own per call, so that a retried test makes its own workspace. */
const segmentOf = (name: string) => `${name}-${process.pid}-${Date.now().toString(36)}-${++segments}`.slice(0, 32);

/**
 * The workspace, its members and invitations through the agents' door (the MCP tool server, as its
 * own process over stdio) and the shell's (the built CLI), both against one service, with tokens made
 * in a shared workspace: what one door does, the other sees.
 */
describe('workspaces through the MCP tool server and the CLI', () => {
  let app: RunningApp;
  let alice: TestUser;
  let workspace: Workspace;
  /** Alice's token of the shared workspace (she is its OWNER), and the MCP server and CLI env using it. */
  let ownerToken: string;
  let mcp: Connected;
  let home: string;
  let env: Record<string, string>;
  const servers: Connected[] = [];

  /** A console call of `user`, acting in `workspaceId` when given (the console tab's header). */
  async function consoleCall(user: TestUser, method: string, path: string, body?: unknown, workspaceId?: string) {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        cookie: user.cookie,
        origin: app.baseUrl,
        ...(workspaceId ? { [HEADER]: workspaceId } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several console routes, read member by member
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
  }

  /** A shared workspace `owner` creates in the console. */
  async function createWorkspace(owner: TestUser, name: string): Promise<Workspace> {
    const created = await consoleCall(owner, 'POST', '/api/workspaces', { name, segment: segmentOf(name.toLowerCase()) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.workspace as Workspace;
  }

  /** A token `user` makes in the console while acting in `workspaceId`: a token of that workspace. */
  async function tokenIn(user: TestUser, workspaceId: string): Promise<string> {
    const made = await consoleCall(
      user,
      'POST',
      '/api/tokens',
      { name: 'doors', scopes: ['read', 'write'], rateLimitPerMinute: 600 },
      workspaceId,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.plaintext as string;
  }

  /** The invitee accepts in the console: the secret is the last segment of the invitation's link. */
  async function accept(user: TestUser, url: string): Promise<number> {
    return (await consoleCall(user, 'POST', `/api/invitations/${url.split('/').pop()}/accept`)).status;
  }

  /** A fresh account that joins Alice's workspace with `role` (invited and accepted in the console). */
  async function member(role: string): Promise<TestUser> {
    const user = await createUser(app.baseUrl);
    const invited = await consoleCall(
      alice,
      'POST',
      '/api/console/workspace/invitations',
      { email: user.email, role },
      workspace.id,
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(await accept(user, invited.body.url as string)).toBe(200);
    return user;
  }

  /** The members of Alice's workspace as the service has them, by user id. */
  async function rolesNow(): Promise<Record<string, string>> {
    const listed = await consoleCall(alice, 'GET', '/api/console/workspace/members', undefined, workspace.id);
    return Object.fromEntries((listed.body.members as Member[]).map((row) => [row.userId, row.role]));
  }

  async function mcpWith(token: string): Promise<Connected> {
    const connected = await connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: token });
    servers.push(connected);
    // Listing first makes the SDK client check every structuredContent against the declared output schemas.
    await connected.client.listTools();
    return connected;
  }

  const callWith = async (connected: Connected, name: string, args: Record<string, unknown> = {}) =>
    (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
  async function ok<T>(name: string, args: Record<string, unknown> = {}, connected = mcp): Promise<T> {
    const result = await callWith(connected, name, args);
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    return result.structuredContent as T;
  }
  const envWith = (token: string) => ({ ...env, SHAREDOWN_TOKEN: token });
  async function cliJson<T>(args: string[], withEnv = env): Promise<T> {
    const result = await runCli([...args, '--json'], withEnv);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    workspace = await createWorkspace(alice, 'Sales');
    ownerToken = await tokenIn(alice, workspace.id);
    mcp = await mcpWith(ownerToken);
    home = await mkdtemp(join(tmpdir(), 'sharedown-workspace-doors-'));
    env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'xdg'),
      PATH: process.env.PATH ?? '',
      SHAREDOWN_URL: app.baseUrl,
      SHAREDOWN_TOKEN: ownerToken,
    };
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    if (home) await rm(home, { recursive: true, force: true });
    await app?.cleanup();
  });

  it("shows the token's workspace through both doors: shared for a token made in it, personal for an account's own", async () => {
    const shown = await ok<{ workspace: Workspace }>('service_workspace');
    expect(shown.workspace).toMatchObject({
      id: workspace.id,
      name: 'Sales',
      segment: workspace.segment,
      personal: false,
      role: 'OWNER',
      quotaBytes: expect.any(Number),
      usedBytes: 0,
    });
    expect(shown.workspace.memberCount).toBeGreaterThanOrEqual(1);
    expect(await cliJson(['workspace'])).toEqual(shown);
    const human = await runCli(['workspace'], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^name\s+Sales$/m);
    expect(human.stdout).toMatch(/^kind\s+shared$/m);
    expect(human.stdout).toContain(`/s/${workspace.segment}/`);
    expect(human.stdout).toMatch(/^your role\s+OWNER$/m);

    // The token createUser made in Alice's personal workspace: her own, one member, no invitations.
    const personalMcp = await mcpWith(alice.token);
    const personal = await ok<{ workspace: Workspace }>('service_workspace', {}, personalMcp);
    expect(personal.workspace).toMatchObject({
      id: alice.userId,
      segment: alice.segment,
      personal: true,
      role: 'OWNER',
      memberCount: 1,
    });
    expect(await cliJson(['workspace'], envWith(alice.token))).toEqual(personal);
    expect((await runCli(['workspace'], envWith(alice.token))).stdout).toMatch(/^kind\s+personal/m);
    const alone = await ok<{ members: Member[] }>('service_members', {}, personalMcp);
    expect(alone.members.map((row) => [row.userId, row.role])).toEqual([[alice.userId, 'OWNER']]);
    // A personal workspace has no other members: inviting into it is a CONFLICT on both doors.
    const invite = await callWith(personalMcp, 'service_invite', { email: 'nobody@example.com', role: 'VIEWER' });
    expect(refusal(invite)).toMatchObject({ code: 'CONFLICT', status: 409 });
    const byCli = await runCli(['members', 'invite', 'nobody@example.com', '--role', 'VIEWER'], envWith(alice.token));
    expect(byCli.code).toBe(1);
    expect(byCli.stderr).toMatch(/^CONFLICT: /);
  });

  it('lists the same members through both doors', async () => {
    const bob = await member('EDITOR');
    const listed = await ok<{ members: Member[]; nextCursor: string | null }>('service_members');
    expect(listed.nextCursor).toBeNull();
    expect(listed.members).toEqual(
      expect.arrayContaining([
        { userId: alice.userId, email: alice.email, role: 'OWNER', joinedAt: expect.any(String) },
        { userId: bob.userId, email: bob.email, role: 'EDITOR', joinedAt: expect.any(String) },
      ]),
    );
    expect(await cliJson(['members', 'ls'])).toEqual({ members: listed.members });
    const human = await runCli(['members', 'ls'], env);
    expect(human.stdout).toContain(bob.email);
    expect(human.stdout).toContain(bob.userId);
    expect((await ok<{ workspace: Workspace }>('service_workspace')).workspace.memberCount).toBe(listed.members.length);
  });

  it('invites through both doors; the invitees accept with the link, pending ones are listed and revoked on either', async () => {
    const [dave, erin] = [await createUser(app.baseUrl), await createUser(app.baseUrl)];
    const byMcp = await ok<{ invitation: Invitation; url: string }>('service_invite', { email: dave.email, role: 'EDITOR' });
    expect(byMcp.invitation).toMatchObject({ email: dave.email, role: 'EDITOR' });
    expect(byMcp.url).toMatch(new RegExp(`^${app.baseUrl}/invitations/[A-Za-z0-9_-]+$`));
    expect(new Date(byMcp.invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    // Human output: the link alone on stdout, the invitation's id on stderr.
    const byCli = await runCli(['members', 'invite', erin.email, '--role', 'viewer'], env);
    expect(byCli.code, byCli.stderr).toBe(0);
    expect(byCli.stdout).toMatch(new RegExp(`^${app.baseUrl}/invitations/[A-Za-z0-9_-]+\\n$`));

    const pending = await ok<{ invitations: Invitation[] }>('service_list_invitations');
    const erinsInvitation = pending.invitations.find((row) => row.email === erin.email)!;
    expect(erinsInvitation).toMatchObject({ role: 'VIEWER' });
    expect(byCli.stderr).toContain(erinsInvitation.id);
    expect(pending.invitations.map((row) => row.id)).toContain(byMcp.invitation.id);
    const cliPending = await cliJson<{ invitations: Invitation[] }>(['invitations', 'ls']);
    expect(cliPending.invitations.map((row) => row.id)).toEqual(pending.invitations.map((row) => row.id));

    expect(await accept(dave, byMcp.url)).toBe(200);
    expect(await accept(erin, byCli.stdout.trim())).toBe(200);
    const roles = await rolesNow();
    expect([roles[dave.userId], roles[erin.userId]]).toEqual(['EDITOR', 'VIEWER']);
    const members = await cliJson<{ members: Member[] }>(['members', 'ls']);
    expect(members.members.map((row) => row.email)).toEqual(expect.arrayContaining([dave.email, erin.email]));
    const left = await ok<{ invitations: Invitation[] }>('service_list_invitations');
    // Accepted ones are no longer pending.
    expect(left.invitations.map((row) => row.id)).not.toContain(byMcp.invitation.id);
    expect(left.invitations.map((row) => row.id)).not.toContain(erinsInvitation.id);

    // Revoking: one made by the CLI revoked through MCP, one made through MCP revoked by the CLI.
    const [frank, gina] = [await createUser(app.baseUrl), await createUser(app.baseUrl)];
    const forFrank = await cliJson<{ invitation: Invitation; url: string }>([
      'members',
      'invite',
      frank.email,
      '--role',
      'EDITOR',
    ]);
    const forGina = await ok<{ invitation: Invitation; url: string }>('service_invite', { email: gina.email, role: 'ADMIN' });
    const revoked = await ok<{ invitation: Invitation }>('service_revoke_invitation', { invitationId: forFrank.invitation.id });
    expect(revoked.invitation).toEqual(forFrank.invitation);
    const byCommand = await runCli(['invitations', 'revoke', forGina.invitation.id], env);
    expect(byCommand.code, byCommand.stderr).toBe(0);
    expect(byCommand.stdout).toBe(
      `Revoked the invitation of ${gina.email} (${forGina.invitation.id}): its link no longer works.\n`,
    );
    const again = await callWith(mcp, 'service_revoke_invitation', { invitationId: forGina.invitation.id });
    expect(refusal(again)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await accept(frank, forFrank.url)).toBe(404);
    expect(await accept(gina, forGina.url)).toBe(404);
    const after = await cliJson<{ invitations: Invitation[] }>(['invitations', 'ls']);
    expect(after.invitations.map((row) => row.id)).not.toContain(forFrank.invitation.id);
    expect(after.invitations.map((row) => row.id)).not.toContain(forGina.invitation.id);
    const roster = await rolesNow();
    expect([roster[frank.userId], roster[gina.userId]]).toEqual([undefined, undefined]);
  });

  it('changes roles through both doors, and each door sees what the other did', async () => {
    const [hank, ivy] = [await member('EDITOR'), await member('VIEWER')];
    const byMcp = await ok<{ member: Member }>('service_set_role', { userId: hank.userId, role: 'ADMIN' });
    expect(byMcp.member).toMatchObject({ userId: hank.userId, email: hank.email, role: 'ADMIN' });
    const byCli = await runCli(['members', 'role', ivy.userId, 'editor'], env);
    expect(byCli.code, byCli.stderr).toBe(0);
    expect(byCli.stdout).toBe(`${ivy.email} (${ivy.userId}) is now EDITOR.\n`);
    const json = await cliJson<{ member: Member }>(['members', 'role', hank.userId, 'VIEWER']);
    expect(json.member).toMatchObject({ userId: hank.userId, role: 'VIEWER' });

    const seenByMcp = await ok<{ members: Member[] }>('service_members');
    const roleOf = (rows: Member[], user: TestUser) => rows.find((row) => row.userId === user.userId)?.role;
    expect([roleOf(seenByMcp.members, hank), roleOf(seenByMcp.members, ivy)]).toEqual(['VIEWER', 'EDITOR']);
    const seenByCli = await cliJson<{ members: Member[] }>(['members', 'ls']);
    expect([roleOf(seenByCli.members, hank), roleOf(seenByCli.members, ivy)]).toEqual(['VIEWER', 'EDITOR']);

    // The member's own token of the workspace acts with the new role at its next call.
    const ivysToken = await tokenIn(ivy, workspace.id);
    const ivysMcp = await mcpWith(ivysToken);
    expect((await ok<{ workspace: Workspace }>('service_workspace', {}, ivysMcp)).workspace.role).toBe('EDITOR');
    await ok('service_set_role', { userId: ivy.userId, role: 'VIEWER' });
    expect((await ok<{ workspace: Workspace }>('service_workspace', {}, ivysMcp)).workspace.role).toBe('VIEWER');
  });

  it('removes members through both doors: gone from the lists, their tokens of the workspace refused', async () => {
    const [jack, kim] = [await member('EDITOR'), await member('ADMIN')];
    const [jacksToken, kimsToken] = [await tokenIn(jack, workspace.id), await tokenIn(kim, workspace.id)];
    expect((await runCli(['workspace', '--json'], envWith(kimsToken))).code).toBe(0);

    const byMcp = await ok<{ removed: true; userId: string }>('service_remove_member', { userId: jack.userId });
    expect(byMcp).toEqual({ removed: true, userId: jack.userId });
    const byCli = await runCli(['members', 'rm', kim.userId], env);
    expect(byCli.code, byCli.stderr).toBe(0);
    expect(byCli.stdout).toContain(`${kim.userId} is no longer a member of this workspace`);

    const roster = await rolesNow();
    expect([roster[jack.userId], roster[kim.userId]]).toEqual([undefined, undefined]);
    const listed = await ok<{ members: Member[] }>('service_members');
    expect(listed.members.map((row) => row.userId)).not.toContain(jack.userId);
    expect(listed.members.map((row) => row.userId)).not.toContain(kim.userId);
    const cliListed = await cliJson<{ members: Member[] }>(['members', 'ls']);
    expect(cliListed.members.map((row) => row.userId)).not.toContain(jack.userId);

    // Their tokens of the workspace answer 401 on both doors from the next call on.
    const jacksMcp = await mcpWith(jacksToken);
    expect(refusal(await callWith(jacksMcp, 'service_workspace'))).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    const kimsCall = await runCli(['workspace'], envWith(kimsToken));
    expect(kimsCall.code).toBe(1);
    expect(kimsCall.stderr).toMatch(/^UNAUTHENTICATED: /);

    // Removing again: not a member any more, on either door.
    expect(refusal(await callWith(mcp, 'service_remove_member', { userId: kim.userId }))).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    const twice = await runCli(['members', 'rm', jack.userId, '--json'], env);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stderr)).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });
    expect(await cliJson(['workspace'])).toMatchObject({
      workspace: { id: workspace.id, memberCount: listed.members.length },
    });
  });

  it("gives a VIEWER's token FORBIDDEN on inviting, changing roles, removing and revoking through both doors, and lets it read", async () => {
    const [viewer, target] = [await member('VIEWER'), await member('EDITOR')];
    const pendingFor = await createUser(app.baseUrl);
    const pending = await ok<{ invitation: Invitation }>('service_invite', { email: pendingFor.email, role: 'EDITOR' });
    const viewerToken = await tokenIn(viewer, workspace.id);
    const viewerMcp = await mcpWith(viewerToken);
    const before = await rolesNow();

    const writes: [string, Record<string, unknown>][] = [
      ['service_invite', { email: 'never@example.com', role: 'VIEWER' }],
      ['service_set_role', { userId: target.userId, role: 'OWNER' }],
      ['service_set_role', { userId: viewer.userId, role: 'ADMIN' }],
      ['service_remove_member', { userId: target.userId }],
      ['service_revoke_invitation', { invitationId: pending.invitation.id }],
    ];
    for (const [name, args] of writes) {
      const body = refusal(await callWith(viewerMcp, name, args));
      expect(body, name).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(body.message, name).toContain('a VIEWER changes nothing');
    }
    const viewerEnv = envWith(viewerToken);
    for (const args of [
      ['members', 'invite', 'never@example.com', '--role', 'VIEWER'],
      ['members', 'role', target.userId, 'OWNER'],
      ['members', 'rm', target.userId],
      ['invitations', 'revoke', pending.invitation.id],
    ]) {
      const result = await runCli(args, viewerEnv);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/^FORBIDDEN: [\s\S]*a VIEWER changes nothing/);
    }

    // It reads the workspace and its members as a VIEWER.
    const shown = await ok<{ workspace: Workspace }>('service_workspace', {}, viewerMcp);
    expect(shown.workspace).toMatchObject({ id: workspace.id, role: 'VIEWER', personal: false });
    const read = await ok<{ members: Member[] }>('service_members', {}, viewerMcp);
    expect(read.members.map((row) => row.userId)).toEqual(expect.arrayContaining([viewer.userId, target.userId]));
    expect((await cliJson<{ members: Member[] }>(['members', 'ls'], viewerEnv)).members).toEqual(read.members);

    // Nothing changed: the same roles, the invitation still pending, nobody invited.
    expect(await rolesNow()).toEqual(before);
    const invitations = await ok<{ invitations: Invitation[] }>('service_list_invitations');
    expect(invitations.invitations.map((row) => row.id)).toContain(pending.invitation.id);
    expect(invitations.invitations.map((row) => row.email)).not.toContain('never@example.com');
  });

  it("filters the workspace's activity by member through both doors", async () => {
    const editor = await member('EDITOR');
    type Event = { action: string; actor: { userId: string } | null };
    const byEditor = await ok<{ events: Event[] }>('service_activity', { actor: editor.userId, limit: 200 });
    expect(byEditor.events.map((event) => event.action)).toContain('workspace.joined');
    expect(byEditor.events.every((event) => event.actor?.userId === editor.userId)).toBe(true);
    const byAlice = await ok<{ events: Event[] }>('service_activity', { actor: alice.userId, limit: 200 });
    expect(byAlice.events.length).toBeGreaterThan(0);
    expect(byAlice.events.every((event) => event.actor?.userId === alice.userId)).toBe(true);
    const cli = await cliJson<{ events: Event[] }>(['activity', '--actor', editor.userId, '--limit', '200']);
    expect(cli.events).toEqual(byEditor.events);
  });

  it('answers a VIEWER FORBIDDEN on every write route of the token API and every write tool, another workspace NOT_FOUND on every id', async () => {
    /** A token call: the status and the JSON answer. */
    async function rest(token: string, method: string, path: string, body?: unknown) {
      const response = await fetch(`${app.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of every route, read by status and code
      return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : {}) as Record<string, any> };
    }
    async function uploaded(name: string): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob(['# Plan\n'], { type: 'text/markdown' }), name);
      const response = await fetch(`${app.baseUrl}/api/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownerToken}` },
        body: form,
      });
      const id = ((await response.json()) as { file: { id: string } }).file.id;
      for (let scan = 0; (await rest(ownerToken, 'GET', `/api/v1/files/${id}`)).body.scanStatus !== 'CLEAN'; scan += 1) {
        if (scan > 300) throw new Error('the scan did not settle');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return id;
    }
    // One object of every kind in Alice's workspace, live and trashed.
    const fileId = await uploaded(`plan-${Date.now()}.md`);
    const trashedFileId = await uploaded(`old-${Date.now()}.md`);
    expect((await rest(ownerToken, 'DELETE', `/api/v1/files/${trashedFileId}`)).status).toBe(200);
    const folderId = (await rest(ownerToken, 'POST', '/api/v1/folders', { name: `Plans ${Date.now()}` })).body.folder
      .id as string;
    const trashedFolderId = (await rest(ownerToken, 'POST', '/api/v1/folders', { name: `Old ${Date.now()}` })).body.folder
      .id as string;
    expect((await rest(ownerToken, 'DELETE', `/api/v1/folders/${trashedFolderId}`)).status).toBe(200);
    const shareId = (await rest(ownerToken, 'POST', '/api/v1/shares', { fileId })).body.share.id as string;
    const requestId = (await rest(ownerToken, 'POST', '/api/v1/requests', { title: 'Receipts' })).body.request.id as string;
    const invitationId = (
      await ok<{ invitation: Invitation }>('service_invite', { email: `later-${Date.now()}@example.com`, role: 'VIEWER' })
    ).invitation.id;
    const [viewer, editor] = [await member('VIEWER'), await member('EDITOR')];
    const viewerToken = await tokenIn(viewer, workspace.id);
    const stranger = await createUser(app.baseUrl);
    const strangerToken = await tokenIn(stranger, (await createWorkspace(stranger, 'Elsewhere')).id);

    /** A route's path with Alice's workspace's objects in it. */
    const filled = (path: string) =>
      path
        .replace(/^\/api\/v1\/trash\/files\/\{id\}/, `/api/v1/trash/files/${trashedFileId}`)
        .replace(/^\/api\/v1\/trash\/folders\/\{id\}/, `/api/v1/trash/folders/${trashedFolderId}`)
        .replace(/^\/api\/v1\/files\/\{id\}/, `/api/v1/files/${fileId}`)
        .replace(/^\/api\/v1\/folders\/\{id\}/, `/api/v1/folders/${folderId}`)
        .replace(/^\/api\/v1\/shares\/\{id\}/, `/api/v1/shares/${shareId}`)
        .replace(/^\/api\/v1\/requests\/\{id\}/, `/api/v1/requests/${requestId}`)
        .replace('{uploadId}', randomUUID())
        .replace('/invitations/{id}', `/invitations/${invitationId}`)
        .replace('{userId}', editor.userId);
    const contract = JSON.parse(
      await readFile(fileURLToPath(new URL('../../libs/contract/openapi.json', import.meta.url)), 'utf8'),
    ) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(contract.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })))
      .filter(({ method }) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method));

    // Checking a document changes nothing, so a VIEWER may; every other write is refused before it is read.
    const writes = routes.filter(({ method, path }) => method !== 'GET' && path !== '/api/v1/validate');
    expect(writes.length).toBeGreaterThanOrEqual(20);
    for (const { method, path } of writes) {
      const answer = await rest(viewerToken, method, filled(path), {});
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
    }
    const viewerMcp = await mcpWith(viewerToken);
    const writeTools: [string, Record<string, unknown>][] = [
      ['service_upload', { name: 'nope.md', content: '# no', kind: 'MARKDOWN' }],
      ['service_create_folder', { name: 'Nope' }],
      ['service_share', { fileId }],
      ['service_share_folder', { folderId }],
      ['service_update_share', { shareId, options: { maxVisits: 3 } }],
      ['service_revoke', { shareId }],
      ['service_move', { fileId, name: 'renamed.md' }],
      ['service_delete', { fileId }],
      ['service_restore', { fileId: trashedFileId }],
      ['service_purge', { fileId: trashedFileId }],
      ['service_create_request', { title: 'Nope' }],
      ['service_close_request', { requestId }],
      ['service_review_upload', { requestId, uploadId: randomUUID(), decision: 'accept' }],
      ['service_mark_read', {}],
    ];
    for (const [name, args] of writeTools) {
      const result = await callWith(viewerMcp, name, args);
      expect(textOf(result), name).toMatch(/^\{/);
      expect(refusal(result), name).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }

    // Another workspace's token, with every right in its own, finds none of them. Writes carry valid bodies.
    const bodies: Record<string, unknown> = {
      'PATCH /api/v1/files/{id}': { name: 'taken.md' },
      'PATCH /api/v1/folders/{id}': { name: 'Taken' },
      'PATCH /api/v1/shares/{id}': { maxVisits: 3 },
      'PATCH /api/v1/requests/{id}': { title: 'Taken' },
      'PATCH /api/v1/workspace/members/{userId}': { role: 'VIEWER' },
    };
    const idRoutes = routes.filter(({ path }) => path.includes('{'));
    expect(idRoutes.length).toBeGreaterThanOrEqual(20);
    for (const { method, path } of idRoutes) {
      const answer = await rest(strangerToken, method, filled(path), bodies[`${method} ${path}`]);
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }

    // Nothing of Alice's workspace changed.
    expect((await rest(ownerToken, 'GET', `/api/v1/files/${fileId}`)).body).toMatchObject({ id: fileId, folderId: null });
    expect((await rest(ownerToken, 'GET', `/api/v1/shares/${shareId}`)).body).toMatchObject({ revokedAt: null });
    expect((await rest(ownerToken, 'GET', `/api/v1/requests/${requestId}`)).body.request).toMatchObject({ title: 'Receipts' });
    expect((await rest(ownerToken, 'GET', '/api/v1/trash')).body.files.map((f: { id: string }) => f.id)).toContain(trashedFileId);
    expect((await rolesNow())[editor.userId]).toBe('EDITOR');
  });

  it("answers NOT_FOUND on both doors for another workspace's member and invitation, and changes nothing of them", async () => {
    const [owner, theirMember, invitee] = [
      await createUser(app.baseUrl),
      await createUser(app.baseUrl),
      await createUser(app.baseUrl),
    ];
    const theirs = await createWorkspace(owner, 'Legal');
    const invited = await consoleCall(
      owner,
      'POST',
      '/api/console/workspace/invitations',
      { email: theirMember.email, role: 'EDITOR' },
      theirs.id,
    );
    expect(await accept(theirMember, invited.body.url as string)).toBe(200);
    const pending = await consoleCall(
      owner,
      'POST',
      '/api/console/workspace/invitations',
      { email: invitee.email, role: 'VIEWER' },
      theirs.id,
    );
    const invitationId = (pending.body.invitation as Invitation).id;

    const attempts: [string, Record<string, unknown>][] = [
      ['service_set_role', { userId: theirMember.userId, role: 'VIEWER' }],
      ['service_set_role', { userId: owner.userId, role: 'VIEWER' }],
      ['service_remove_member', { userId: theirMember.userId }],
      ['service_remove_member', { userId: owner.userId }],
      ['service_revoke_invitation', { invitationId }],
    ];
    for (const [name, args] of attempts) {
      expect(refusal(await callWith(mcp, name, args)), `${name} ${JSON.stringify(args)}`).toMatchObject({
        code: 'NOT_FOUND',
        status: 404,
      });
    }
    for (const args of [
      ['members', 'role', theirMember.userId, 'VIEWER'],
      ['members', 'rm', theirMember.userId],
      ['members', 'rm', owner.userId],
      ['invitations', 'revoke', invitationId],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/^NOT_FOUND: /);
    }
    const ours = await ok<{ members: Member[] }>('service_members');
    expect(ours.members.map((row) => row.userId)).not.toContain(theirMember.userId);
    expect((await ok<{ invitations: Invitation[] }>('service_list_invitations')).invitations.map((row) => row.id)).not.toContain(
      invitationId,
    );

    // Their workspace is as it was: both members with their roles, the invitation still pending.
    const theirMembers = await consoleCall(owner, 'GET', '/api/console/workspace/members', undefined, theirs.id);
    expect(Object.fromEntries((theirMembers.body.members as Member[]).map((row) => [row.userId, row.role]))).toEqual({
      [owner.userId]: 'OWNER',
      [theirMember.userId]: 'EDITOR',
    });
    const theirInvitations = await consoleCall(owner, 'GET', '/api/console/workspace/invitations', undefined, theirs.id);
    expect((theirInvitations.body.invitations as Invitation[]).map((row) => row.id)).toEqual([invitationId]);
  });
});
