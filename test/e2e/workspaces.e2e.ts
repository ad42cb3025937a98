import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, sql } from '../support/browser.js';

const HEADER = 'x-sharedown-workspace';

/** A JSON answer, read loosely: each test names the members it asserts on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of many routes, checked member by member
type Answer = Record<string, any>;

interface Workspace {
  id: string;
  name: string;
  segment: string;
  personal: boolean;
  role: string;
  quotaBytes: number;
  usedBytes: number;
  memberCount: number;
}

/**
 * Workspaces: a team shares its documents, links and tokens with roles. Two api replicas on one
 * database: a change of roles or members holds at the next request on either.
 */
describe('workspaces', () => {
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let workspace: Workspace;
  let bobToken: string;

  beforeAll(async () => {
    const SESSION_SECRET = 'workspaces-secret-0123456789abcdef-0123';
    first = await startApp({ env: { SESSION_SECRET } });
    second = await startApp({
      role: 'api',
      env: {
        SESSION_SECRET,
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    [alice, bob, carol] = [await createUser(first.baseUrl), await createUser(first.baseUrl), await createUser(first.baseUrl)];
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
  });

  /** A console call of `user`, acting in `workspaceId` when given (the console tab's header). */
  async function consoleCall(
    user: TestUser,
    method: string,
    path: string,
    body?: unknown,
    workspaceId?: string,
    base = first.baseUrl,
  ) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        cookie: user.cookie,
        origin: base,
        ...(workspaceId ? { [HEADER]: workspaceId } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
  }

  async function tokenCall(token: string, method: string, path: string, body?: unknown, base = first.baseUrl) {
    const response = await fetch(`${base}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
  }

  async function upload(token: string, name: string, content: string, base = first.baseUrl) {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/plain' }), name);
    const response = await fetch(`${base}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Answer };
  }

  /** Waits until the workspace's file (read with a token of the workspace) is scanned CLEAN. */
  async function scanned(token: string, fileId: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await tokenCall(token, 'GET', `/files/${fileId}`)).body.scanStatus !== 'CLEAN') {
      if (Date.now() > deadline) throw new Error('scan did not settle');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Invites `user` with `role` and accepts: the invitation's answer. */
  async function join(user: TestUser, role: string): Promise<void> {
    const invited = await consoleCall(
      alice,
      'POST',
      '/api/console/workspace/invitations',
      { email: user.email, role },
      workspace.id,
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const secret = String(invited.body.url).split('/').pop()!;
    expect((await consoleCall(user, 'POST', `/api/invitations/${secret}/accept`)).status).toBe(200);
  }

  it('creates a shared workspace with a segment of its own; the switcher lists the personal one first', async () => {
    const taken = await consoleCall(alice, 'POST', '/api/workspaces', { name: 'Sales', segment: bob.segment });
    expect([taken.status, taken.body.code]).toEqual([409, 'CONFLICT']);
    const created = await consoleCall(alice, 'POST', '/api/workspaces', { name: 'Sales', segment: `sales-${Date.now()}` });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    workspace = created.body.workspace as Workspace;
    expect(workspace).toMatchObject({ name: 'Sales', personal: false, role: 'OWNER', usedBytes: 0, memberCount: 1 });
    const mine = await consoleCall(alice, 'GET', '/api/workspaces');
    expect(mine.body.workspaces.map((w: Workspace) => [w.personal, w.name])).toEqual([
      [true, alice.email],
      [false, 'Sales'],
    ]);
    // A personal token sees the personal workspace, with the account's own figures.
    const personal = await tokenCall(alice.token, 'GET', '/workspace');
    expect(personal.body.workspace).toMatchObject({ id: alice.userId, personal: true, role: 'OWNER', memberCount: 1 });
    // Someone who is no member cannot act in it.
    expect((await consoleCall(carol, 'GET', '/api/console/files', undefined, workspace.id)).status).toBe(404);
  });

  it('20 parallel acceptances of one invitation make one membership; another address cannot accept it', async () => {
    const invited = await consoleCall(
      alice,
      'POST',
      '/api/console/workspace/invitations',
      { email: bob.email, role: 'EDITOR' },
      workspace.id,
    );
    expect(invited.body.invitation).toMatchObject({ email: bob.email.toLowerCase(), role: 'EDITOR' });
    const secret = String(invited.body.url).split('/').pop()!;
    expect((await consoleCall(carol, 'POST', `/api/invitations/${secret}/accept`)).status).toBe(403);
    const accepted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        consoleCall(bob, 'POST', `/api/invitations/${secret}/accept`, undefined, undefined, [first, second][i % 2]!.baseUrl),
      ),
    );
    expect(accepted.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
    const members = await consoleCall(alice, 'GET', '/api/console/workspace/members', undefined, workspace.id);
    expect(members.body.members.map((m: { email: string; role: string }) => m.role).sort()).toEqual(['EDITOR', 'OWNER']);
    expect((await consoleCall(bob, 'GET', `/api/invitations/${secret}`)).status).toBe(404);
  });

  it("a member's token acts in the workspace as its creator: files, links, quota; another workspace's objects are 404", async () => {
    const created = await consoleCall(
      bob,
      'POST',
      '/api/tokens',
      { name: 'sales-bot', scopes: ['read', 'write'], rateLimitPerMinute: 600 },
      workspace.id,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    bobToken = created.body.plaintext;
    const me = await tokenCall(bobToken, 'GET', '/me');
    expect(me.body.user).toMatchObject({ id: bob.userId, email: bob.email, quotaBytes: workspace.quotaBytes });
    expect((await tokenCall(bobToken, 'GET', '/workspace')).body.workspace).toMatchObject({
      id: workspace.id,
      role: 'EDITOR',
      memberCount: 2,
    });

    const uploaded = await upload(bobToken, 'pricing.md', '# Pricing\n\nFor the team.\n');
    expect(uploaded.status).toBe(200);
    const fileId = uploaded.body.file.id as string;
    await scanned(bobToken, fileId);
    // Alice sees it in the workspace, not among her own files; her personal token does not find it.
    const inWorkspace = await consoleCall(alice, 'GET', '/api/console/files', undefined, workspace.id);
    expect(inWorkspace.body.files.map((f: { id: string }) => f.id)).toContain(fileId);
    const own = await consoleCall(alice, 'GET', '/api/console/files');
    expect(own.body.files.map((f: { id: string }) => f.id)).not.toContain(fileId);
    expect((await tokenCall(alice.token, 'GET', `/files/${fileId}`)).status).toBe(404);
    expect((await tokenCall(carol.token, 'GET', `/files/${fileId}`)).status).toBe(404);

    // A link made by the token lives under the workspace's segment; Alice edits it in the workspace.
    const link = await tokenCall(bobToken, 'POST', '/shares', { fileId });
    expect(link.status).toBe(200);
    expect(link.body.url).toBe(`${first.baseUrl}/s/${workspace.segment}/${link.body.share.token}`);
    // The workspace's activity names the member who acted, and filters by member.
    const trail = await consoleCall(alice, 'GET', `/api/audit?actor=${bob.userId}`, undefined, workspace.id);
    const acted = trail.body.events.map((event: Answer) => [event.action, event.actor?.email]);
    expect(acted).toContainEqual(['share.created', bob.email]);
    expect(acted.every(([, email]: [string, string]) => email === bob.email)).toBe(true);
    // Files and links say which member made them; a personal workspace's keep the contract's fields.
    expect(link.body.share.createdBy).toEqual({ userId: bob.userId, email: bob.email });
    expect((await tokenCall(alice.token, 'GET', `/files/${fileId}`)).status).toBe(404);
    expect((await tokenCall(bobToken, 'GET', `/files/${fileId}`)).body.createdBy).toEqual({
      userId: bob.userId,
      email: bob.email,
    });
    const personalFile = await upload(alice.token, `own-${Date.now()}.md`, 'mine');
    expect(personalFile.body.file).not.toHaveProperty('createdBy');
    expect(isDocument(await new HttpVisitor(first.baseUrl).get(new URL(link.body.url).pathname))).toBe(true);
    const edited = await consoleCall(
      alice,
      'PATCH',
      `/api/console/shares/${link.body.share.id}`,
      { maxVisits: 50 },
      workspace.id,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // The workspace's quota counts it.
    expect((await tokenCall(bobToken, 'GET', '/me')).body.user.usedBytes).toBeGreaterThan(0);
    // Alice's personal workspace counts only her own 4-byte file.
    expect((await tokenCall(alice.token, 'GET', '/me')).body.user.usedBytes).toBe(4);
  });

  it("a link's visits notify the member who made it, not the rest of the workspace", async () => {
    const uploaded = await upload(bobToken, `notes-${Date.now()}.md`, '# Notes\n');
    await scanned(bobToken, uploaded.body.file.id);
    const link = await tokenCall(bobToken, 'POST', '/shares', { fileId: uploaded.body.file.id, notify: 'every' });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(isDocument(await new HttpVisitor(first.baseUrl).get(new URL(link.body.url).pathname))).toBe(true);
    const ofLink = (answer: { body: Answer }) =>
      (answer.body.notifications as Answer[]).filter((note) => note.shareId === link.body.share.id);
    // The visit log writes in batches: wait for Bob's notification, on the token door.
    const deadline = Date.now() + 15_000;
    while (ofLink(await tokenCall(bobToken, 'GET', '/notifications')).length === 0) {
      if (Date.now() > deadline) throw new Error('no notification reached the link’s creator');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const bobs = await consoleCall(bob, 'GET', '/api/notifications', undefined, workspace.id);
    expect(ofLink(bobs).map((note) => note.kind)).toEqual(['visit']);
    // Alice, the owner, does not get the notification of Bob's link; nor does Bob's personal workspace.
    expect(ofLink(await consoleCall(alice, 'GET', '/api/notifications', undefined, workspace.id))).toEqual([]);
    expect(ofLink(await consoleCall(bob, 'GET', '/api/notifications'))).toEqual([]);
  });

  it("a member's export carries the workspace, its members and who made each file", async () => {
    const response = await fetch(`${first.baseUrl}/v1/export`, { headers: { authorization: `Bearer ${bobToken}` } });
    expect(response.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as Answer;
    expect(manifest.workspace).toMatchObject({ id: workspace.id, name: 'Sales', segment: workspace.segment });
    expect(manifest.workspace.members.map((m: Answer) => [m.email, m.role])).toEqual([
      [alice.email, 'OWNER'],
      [bob.email, 'EDITOR'],
    ]);
    const pricing = (manifest.files as Answer[]).find((file) => file.name === 'pricing.md');
    expect(pricing?.createdBy).toEqual({ userId: bob.userId, email: bob.email });
    expect(zip['documents/pricing.md']).toBeDefined();
    // A personal export keeps the shape it always had.
    const own = await fetch(`${first.baseUrl}/v1/export`, { headers: { authorization: `Bearer ${carol.token}` } });
    const ownManifest = JSON.parse(strFromU8(unzipSync(new Uint8Array(await own.arrayBuffer()))['manifest.json']!)) as Answer;
    expect(ownManifest).not.toHaveProperty('workspace');
  });

  it('administrators list workspaces with owners, members and usage, and set a quota that holds under parallel uploads', async () => {
    // Alice made the instance's first account: she is its administrator; Bob is not.
    expect((await consoleCall(bob, 'GET', '/api/admin/workspaces')).status).toBe(403);
    const listed = await consoleCall(alice, 'GET', `/api/admin/workspaces?q=${workspace.segment}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [row] = listed.body.workspaces as Answer[];
    expect(row).toMatchObject({
      id: workspace.id,
      name: 'Sales',
      segment: workspace.segment,
      owners: [{ userId: alice.userId, email: alice.email }],
      memberCount: 2,
      quotaBytes: workspace.quotaBytes,
    });
    expect(row!.usedBytes).toBeGreaterThan(0);
    // Accounts and workspaces are listed apart; an account's id is no workspace.
    const accounts = await consoleCall(alice, 'GET', '/api/admin/users?limit=100');
    expect(accounts.body.users.map((u: Answer) => u.id)).not.toContain(workspace.id);
    expect((await consoleCall(alice, 'PATCH', `/api/admin/workspaces/${bob.userId}`, { quotaBytes: 1 })).status).toBe(404);
    for (const [method, body] of [['GET'], ['PATCH', { quotaBytes: 1 }], ['DELETE']] as const) {
      expect((await consoleCall(alice, method, `/api/admin/users/${workspace.id}`, body)).status, method).toBe(404);
    }
    const invalid = await consoleCall(alice, 'PATCH', `/api/admin/workspaces/${workspace.id}`, { quotaBytes: -1 });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION']);

    // Room for exactly ten 100-byte uploads, raced by two members over both replicas.
    const quotaBytes = Number(row!.usedBytes) + 1_000;
    const set = await consoleCall(alice, 'PATCH', `/api/admin/workspaces/${workspace.id}`, { quotaBytes });
    expect(set.body).toMatchObject({ id: workspace.id, quotaBytes });
    const body = 'q'.repeat(100);
    const byAlice = async (i: number) => {
      const form = new FormData();
      form.append('file', new Blob([body], { type: 'text/plain' }), `quota-a-${i}-${Date.now()}.txt`);
      const base = [first, second][i % 2]!.baseUrl;
      const response = await fetch(`${base}/api/console/files`, {
        method: 'POST',
        headers: { cookie: alice.cookie, origin: base, [HEADER]: workspace.id },
        body: form,
      });
      return response.status;
    };
    const byBob = async (i: number) =>
      (await upload(bobToken, `quota-b-${i}-${Date.now()}.txt`, body, [first, second][i % 2]!.baseUrl)).status;
    const statuses = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => byAlice(i)),
      ...Array.from({ length: 12 }, (_, i) => byBob(i)),
    ]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 413)).toHaveLength(14);
    expect((await tokenCall(bobToken, 'GET', '/me')).body.user).toMatchObject({ quotaBytes, usedBytes: quotaBytes });
    // Alice's personal workspace is untouched by the workspace's quota.
    expect((await tokenCall(alice.token, 'GET', '/me')).body.user.quotaBytes).toBe(workspace.quotaBytes);
    // The change is on the workspace's trail.
    const trail = await consoleCall(alice, 'GET', '/api/audit?limit=100', undefined, workspace.id);
    expect(trail.body.events.map((event: Answer) => event.action)).toContain('admin.quota_changed');
    await consoleCall(alice, 'PATCH', `/api/admin/workspaces/${workspace.id}`, { quotaBytes: workspace.quotaBytes });
  });

  it('EDITOR to VIEWER while 30 uploads run: none that starts after the change succeeds; a VIEWER still reads', async () => {
    const read = await tokenCall(bobToken, 'GET', '/files');
    expect(read.status).toBe(200);
    const attempt = async (i: number) => {
      const startedAt = performance.now();
      const answer = await upload(bobToken, `race-${i}-${Date.now()}.md`, `race ${i}`, [first, second][i % 2]!.baseUrl);
      return { startedAt, status: answer.status };
    };
    let committedAt = Number.POSITIVE_INFINITY;
    const demoted = consoleCall(
      alice,
      'PATCH',
      `/api/console/workspace/members/${bob.userId}`,
      { role: 'VIEWER' },
      workspace.id,
    ).then((answer) => {
      committedAt = performance.now();
      return answer;
    });
    const during = Array.from({ length: 15 }, (_, i) => attempt(i));
    expect((await demoted).body.member).toMatchObject({ userId: bob.userId, role: 'VIEWER' });
    const after = await Promise.all(Array.from({ length: 15 }, (_, i) => attempt(100 + i)));
    const late = [...(await Promise.all(during)).filter((result) => result.startedAt > committedAt), ...after];
    expect(late.length).toBeGreaterThanOrEqual(15);
    expect(late.map((result) => result.status)).toEqual(Array<number>(late.length).fill(403));
    expect((await tokenCall(bobToken, 'GET', '/files')).status).toBe(200);
    // A VIEWER's console session reads and cannot write either.
    expect((await consoleCall(bob, 'GET', '/api/console/files', undefined, workspace.id)).status).toBe(200);
    expect((await consoleCall(bob, 'POST', '/api/console/folders', { name: 'Nope' }, workspace.id)).status).toBe(403);
  });

  it('a workspace keeps an owner: the last cannot step down, and two owners demoting each other at once leave one', async () => {
    const alone = await consoleCall(
      alice,
      'PATCH',
      `/api/console/workspace/members/${alice.userId}`,
      { role: 'ADMIN' },
      workspace.id,
    );
    expect([alone.status, alone.body.code]).toEqual([409, 'CONFLICT']);
    expect(
      (await consoleCall(alice, 'DELETE', `/api/console/workspace/members/${alice.userId}`, undefined, workspace.id)).status,
    ).toBe(409);
    await join(carol, 'OWNER');
    const [byAlice, byCarol] = await Promise.all([
      consoleCall(alice, 'PATCH', `/api/console/workspace/members/${carol.userId}`, { role: 'EDITOR' }, workspace.id),
      consoleCall(
        carol,
        'PATCH',
        `/api/console/workspace/members/${alice.userId}`,
        { role: 'EDITOR' },
        workspace.id,
        second.baseUrl,
      ),
    ]);
    expect([byAlice.status, byCarol.status].sort()).toEqual([200, 409]);
    const [{ owners }] = await sql<{ owners: number }>(
      first,
      `SELECT count(*)::int AS owners FROM workspace_members WHERE workspace_id = $1 AND role = 'OWNER'`,
      [workspace.id],
    );
    expect(owners).toBe(1);
    // Restore Alice as the owner for what follows.
    const owner = byAlice.status === 200 ? alice : carol;
    if (owner !== alice) {
      expect(
        (await consoleCall(carol, 'PATCH', `/api/console/workspace/members/${alice.userId}`, { role: 'OWNER' }, workspace.id))
          .status,
      ).toBe(200);
    }
  });

  it('a removal holds at the next request on both replicas: the token answers 401, what the member made stays', async () => {
    const before = await tokenCall(bobToken, 'GET', '/files');
    const fileIds = before.body.files.map((f: { id: string }) => f.id);
    const call = async (i: number) => {
      const startedAt = performance.now();
      const answer = await tokenCall(bobToken, 'GET', '/files', undefined, [first, second][i % 2]!.baseUrl);
      return { startedAt, status: answer.status };
    };
    let committedAt = Number.POSITIVE_INFINITY;
    const removed = consoleCall(alice, 'DELETE', `/api/console/workspace/members/${bob.userId}`, undefined, workspace.id).then(
      (answer) => {
        committedAt = performance.now();
        return answer;
      },
    );
    const during = Array.from({ length: 15 }, (_, i) => call(i));
    expect((await removed).status).toBe(204);
    const after = await Promise.all(Array.from({ length: 15 }, (_, i) => call(i)));
    const late = [...(await Promise.all(during)).filter((result) => result.startedAt > committedAt), ...after];
    expect(late.map((result) => result.status)).toEqual(Array<number>(late.length).fill(401));
    expect((await consoleCall(bob, 'GET', '/api/console/files', undefined, workspace.id)).status).toBe(404);
    const kept = await consoleCall(alice, 'GET', '/api/console/files', undefined, workspace.id);
    expect(kept.body.files.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining(fileIds));
  });

  it('a shared workspace holding files cannot be deleted; an empty one can', async () => {
    expect((await consoleCall(alice, 'DELETE', `/api/workspaces/${workspace.id}`)).status).toBe(409);
    const empty = await consoleCall(alice, 'POST', '/api/workspaces', { name: 'Scratch', segment: `scratch-${Date.now()}` });
    expect((await consoleCall(alice, 'DELETE', `/api/workspaces/${empty.body.workspace.id}`)).status).toBe(204);
    expect((await consoleCall(alice, 'GET', '/api/console/files', undefined, empty.body.workspace.id)).status).toBe(404);
  });
});
