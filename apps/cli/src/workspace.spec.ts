import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { LOCALES } from '@sharedown/i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WORKSPACE_ROLES } from './format-workspace.js';
import type { CliIo } from './io.js';
import { wordsOf } from './messages.js';
import { run } from './program.js';

const MEMBER_ID = '1f0e4c57-2f2f-4d51-9a43-6f7d3f1c0a02';
const INVITATION_ID = '7a2b0c6b-7d0e-4f1d-8a1b-2c3d4e5f6a70';
const INVITATION_URL = 'http://sharedown.test/invitations/secret';

const WORKSPACE = {
  id: '0b9e4c57-2f2f-4d51-9a43-6f7d3f1c0a00',
  name: 'Sales',
  segment: 'sales',
  personal: false,
  role: 'ADMIN',
  quotaBytes: 104857600,
  usedBytes: 2097152,
  memberCount: 2,
};
const MEMBER = { userId: MEMBER_ID, email: 'bob@example.com', role: 'EDITOR', joinedAt: '2026-05-01T10:00:00.000Z' };
const OTHER = { ...MEMBER, userId: '2f0e4c57-2f2f-4d51-9a43-6f7d3f1c0a03', email: 'dan@example.com', role: 'OWNER' };
const INVITATION = {
  id: INVITATION_ID,
  email: 'carol@example.com',
  role: 'VIEWER',
  createdAt: '2026-05-01T10:00:00.000Z',
  expiresAt: '2026-05-08T10:00:00.000Z',
};

/** The service's answers: two pages of members, a 204 for a removal. */
function answerOf(method: string, path: string, query: string): { status: number; body?: unknown } {
  if (path === '/api/v1/workspace') return { status: 200, body: { workspace: WORKSPACE } };
  if (path === '/api/v1/workspace/members') {
    return query === '?cursor=page-2'
      ? { status: 200, body: { members: [OTHER], nextCursor: null } }
      : { status: 200, body: { members: [MEMBER], nextCursor: 'page-2' } };
  }
  if (path.startsWith('/api/v1/workspace/members/')) {
    return method === 'DELETE' ? { status: 204 } : { status: 200, body: { member: { ...MEMBER, role: 'VIEWER' } } };
  }
  if (path === '/api/v1/workspace/invitations') {
    return method === 'POST'
      ? { status: 200, body: { invitation: INVITATION, url: INVITATION_URL } }
      : { status: 200, body: { invitations: [INVITATION], nextCursor: null } };
  }
  return { status: 200, body: { invitation: INVITATION } };
}

function stream() {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean };
  out.isTTY = false;
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: out, text: () => text };
}

const calls: { method: string; path: string; query: string; body: unknown }[] = [];

/** One `sharedown …` run against a stubbed service. */
async function sharedown(args: string[], env: Record<string, string> = {}) {
  const stdout = stream();
  const stderr = stream();
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { SHAREDOWN_URL: 'http://sharedown.test', SHAREDOWN_TOKEN: 'shd_unit', HOME: '/nonexistent', ...env },
  };
  const code = await run(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const routes = () => calls.map((call) => `${call.method} ${call.path}${call.query}`);

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = input.method === 'GET' ? '' : await input.clone().text();
      calls.push({ method: input.method, path: url.pathname, query: url.search, body: text ? JSON.parse(text) : undefined });
      const { status, body } = answerOf(input.method, url.pathname, url.search);
      return body === undefined ? new Response(null, { status }) : Response.json(body, { status });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('sharedown workspace, members and invitations', () => {
  it('--help lists the commands', async () => {
    const top = (await sharedown(['--help'])).stdout;
    for (const command of ['workspace', 'members', 'invitations']) expect(top).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const members = await sharedown(['members', '--help']);
    expect(members.code).toBe(0);
    for (const command of ['ls', 'invite', 'role', 'rm']) expect(members.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const invitations = (await sharedown(['invitations', '--help'])).stdout;
    for (const command of ['ls', 'revoke']) expect(invitations).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(calls).toEqual([]);
  });

  it('workspace shows the workspace; --json is the api answer', async () => {
    const { code, stdout } = await sharedown(['workspace']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^name\s+Sales$/m);
    expect(stdout).toMatch(/^kind\s+shared$/m);
    expect(stdout).toMatch(/^links\s+\/s\/sales\/…$/m);
    expect(stdout).toMatch(/^your role\s+ADMIN$/m);
    expect(stdout).toMatch(/^storage\s+2\.0 MB of 100 MB \(2\.0%\)$/m);
    expect(stdout).toMatch(/^members\s+2 members$/m);
    expect(JSON.parse((await sharedown(['workspace', '--json'])).stdout)).toEqual({ workspace: WORKSPACE });
    expect(routes()).toEqual(['GET /api/v1/workspace', 'GET /api/v1/workspace']);
  });

  it('members ls reads every page; --cursor reads one and answers its nextCursor', async () => {
    const all = await sharedown(['members', 'ls', '--json']);
    expect(JSON.parse(all.stdout)).toEqual({ members: [MEMBER, OTHER] });
    expect(routes()).toEqual(['GET /api/v1/workspace/members', 'GET /api/v1/workspace/members?cursor=page-2']);
    calls.length = 0;
    const one = await sharedown(['members', 'list', '--cursor', 'first-page']);
    expect(one.stdout).toContain('bob@example.com');
    expect(one.stdout).toContain(MEMBER_ID);
    expect(one.stdout).toContain('EDITOR');
    expect(one.stderr).toContain('More members: run again with --cursor page-2');
    expect(routes()).toEqual(['GET /api/v1/workspace/members?cursor=first-page']);
  });

  it('members invite posts the address and role, and prints only the link on stdout', async () => {
    const { code, stdout, stderr } = await sharedown(['members', 'invite', 'carol@example.com', '--role', 'viewer']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${INVITATION_URL}\n`);
    expect(stderr).toContain(`Invitation ${INVITATION_ID} for carol@example.com as VIEWER`);
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/workspace/invitations',
        query: '',
        body: { email: 'carol@example.com', role: 'VIEWER' },
      },
    ]);
    const json = await sharedown(['members', 'invite', 'carol@example.com', '--role', 'VIEWER', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ invitation: INVITATION, url: INVITATION_URL });
  });

  it('members invite without --role, or with a role the service lacks, is a usage error that calls nothing', async () => {
    const missing = await sharedown(['members', 'invite', 'carol@example.com']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--role <role>' not specified");
    const wrong = await sharedown(['members', 'invite', 'carol@example.com', '--role', 'member']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('expected one of OWNER, ADMIN, EDITOR, VIEWER');
    expect((await sharedown(['members', 'role', MEMBER_ID, 'boss'])).code).toBe(2);
    expect(calls).toEqual([]);
  });

  it('members role patches the role; members rm deletes and answers what it did on a 204', async () => {
    const changed = await sharedown(['members', 'role', MEMBER_ID, 'viewer']);
    expect(changed.stdout).toBe(`bob@example.com (${MEMBER_ID}) is now VIEWER.\n`);
    const removed = await sharedown(['members', 'rm', MEMBER_ID]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`${MEMBER_ID} is no longer a member of this workspace`);
    const json = await sharedown(['members', 'remove', MEMBER_ID, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ removed: true, userId: MEMBER_ID });
    expect(calls).toEqual([
      { method: 'PATCH', path: `/api/v1/workspace/members/${MEMBER_ID}`, query: '', body: { role: 'VIEWER' } },
      { method: 'DELETE', path: `/api/v1/workspace/members/${MEMBER_ID}`, query: '', body: undefined },
      { method: 'DELETE', path: `/api/v1/workspace/members/${MEMBER_ID}`, query: '', body: undefined },
    ]);
  });

  it('invitations ls and revoke call their routes', async () => {
    const listed = await sharedown(['invitations', 'ls']);
    expect(listed.stdout).toContain('carol@example.com');
    expect(listed.stdout).toContain(INVITATION_ID);
    expect(JSON.parse((await sharedown(['invitations', 'ls', '--json'])).stdout)).toEqual({
      invitations: [INVITATION],
      nextCursor: null,
    });
    const revoked = await sharedown(['invitations', 'revoke', INVITATION_ID]);
    expect(revoked.stdout).toBe(`Revoked the invitation of carol@example.com (${INVITATION_ID}): its link no longer works.\n`);
    expect(routes()).toEqual([
      'GET /api/v1/workspace/invitations',
      'GET /api/v1/workspace/invitations',
      `DELETE /api/v1/workspace/invitations/${INVITATION_ID}`,
    ]);
  });

  it('prints in the language of LANG', async () => {
    const de = await sharedown(['members', 'role', MEMBER_ID, 'VIEWER'], { LANG: 'de_DE.UTF-8' });
    expect(de.stdout).toBe(`bob@example.com (${MEMBER_ID}) ist jetzt VIEWER.\n`);
    const ja = await sharedown(['workspace'], { LANG: 'ja_JP.UTF-8' });
    expect(ja.stdout).toContain('あなたのロール');
    expect(ja.stdout).toContain('共有');
    const fr = await sharedown(['invitations', 'ls'], { LANG: 'fr_FR.UTF-8' });
    expect(fr.stdout).toContain('RÔLE');
    const zh = await sharedown(['workspace'], { LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toContain('2 名成员');
    const es = await sharedown(['invitations', 'revoke', INVITATION_ID], { LANG: 'es_ES.UTF-8' });
    expect(es.stdout).toContain('revocada');
  });

  it('words the member count the language’s way, and lists the roles of the contract', () => {
    const en = wordsOf('en');
    expect(en.format(en.messages.workspace.memberCount, { count: 1 })).toBe('1 member');
    const de = wordsOf('de');
    expect(de.format(de.messages.workspace.memberCount, { count: 3 })).toBe('3 Mitglieder');
    for (const locale of LOCALES) expect(wordsOf(locale).messages.workspace.invitedNote, locale).toContain('{expires}');
    const document = createRequire(import.meta.url)('@sharedown/contract/openapi.json') as {
      components: { schemas: Record<string, { enum?: string[] }> };
    };
    expect([...WORKSPACE_ROLES]).toEqual(document.components.schemas.WorkspaceRole!.enum);
  });
});

describe('a refusal of the workspace commands', () => {
  it('names the role as well as the scope when FORBIDDEN', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ code: 'FORBIDDEN', error: '只有所有者和管理员可以管理成员和邀请' }, { status: 403 })),
    );
    const { code, stdout, stderr } = await sharedown(['members', 'invite', 'carol@example.com', '--role', 'EDITOR']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^FORBIDDEN: /);
    expect(stderr).toContain('only an OWNER or ADMIN manages members and invitations');
  });
});
