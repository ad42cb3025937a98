import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { startApp, type RunningApp, type TestUser } from '../support/app.js';
import { sql } from '../support/browser.js';
import { drained } from '../support/queues.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';

const PASSWORD = 'correct horse battery';
let counter = 0;
const address = (label: string) => `${label}-${process.pid}-${++counter}@example.net`;

/** The invitation token of an invitation link. */
const tokenOf = (url: string) => new URL(url).searchParams.get('invite')!;

describe('registration modes and invitations', () => {
  let app: RunningApp;
  let root: TestUser;
  let anonymous: SharedownClient;

  beforeAll(async () => {
    app = await startApp();
    anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  });
  afterAll(async () => app?.cleanup());

  const register = (email: string, invite?: string) =>
    anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD, ...(invite ? { invite } : {}) } });
  const setMode = (registration: 'open' | 'invite' | 'closed') =>
    unwrap(root.console.PATCH('/api/admin/settings', { body: { registration } }));
  const invite = (body: { email?: string; expiresInDays?: number } = {}) =>
    unwrap(root.console.POST('/api/admin/invites', { body }));

  it('makes exactly one administrator of parallel first registrations on a fresh instance', async () => {
    const emails = Array.from({ length: 12 }, (_, i) => address(`first${i}`));
    const answers = await Promise.all(emails.map((email) => register(email)));
    expect(answers.map((answer) => answer.response.status)).toEqual(emails.map(() => 200));
    const admins = answers.filter((answer) => answer.data!.user!.isAdmin);
    expect(admins).toHaveLength(1);
    const rows = await sql<{ role: string; n: number }>(
      app,
      'SELECT role, count(*)::int AS n FROM users GROUP BY role ORDER BY role',
    );
    expect(rows).toEqual([
      { role: 'admin', n: 1 },
      { role: 'user', n: 11 },
    ]);
    // The administrator is whoever got the role; the rest of the suite acts as that one.
    const first = admins[0]!.data!.user!;
    const login = await anonymous.POST('/api/auth/login', { body: { email: first.email, password: PASSWORD } });
    const cookie = /sharedown_session=[^;]+/.exec(login.response.headers.get('set-cookie') ?? '')![0];
    root = {
      userId: first.id,
      email: first.email,
      cookie,
      console: createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } }),
    } as TestUser;
    expect((await unwrap(root.console.GET('/api/auth/session'))).user.isAdmin).toBe(true);
  });

  it('follows a mode change from the next request on, and tells the sign-in pages', async () => {
    expect(await unwrap(root.console.GET('/api/admin/settings'))).toEqual({ registration: 'open', chosen: false });
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ registration: true, registrationMode: 'open' });

    expect(await setMode('closed')).toEqual({ registration: 'closed', chosen: true });
    const closed = await register(address('closed'));
    expect(closed.response.status).toBe(403);
    expect(closed.error).toMatchObject({ code: 'FORBIDDEN', error: '本服务未开放注册' });
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ registration: false, registrationMode: 'closed' });

    await setMode('invite');
    const uninvited = await register(address('uninvited'));
    expect(uninvited.response.status).toBe(403);
    expect(uninvited.error!.error).toContain('邀请');
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ registration: false, registrationMode: 'invite' });

    await setMode('open');
    expect((await register(address('open'))).response.status).toBe(200);
    const { events } = await unwrap(
      root.console.GET('/api/admin/audit', { params: { query: { action: 'admin.registration_changed' } } }),
    );
    expect(events.map((event) => event.details)).toEqual([
      { from: 'invite', to: 'open' },
      { from: 'closed', to: 'invite' },
      { from: 'open', to: 'closed' },
    ]);
    for (const event of events) expect(event.actorId).toBe(root.userId);
    expect(
      (await root.console.PATCH('/api/admin/settings', { body: { registration: 'sometimes' as never } })).response.status,
    ).toBe(400);
  });

  it('lets exactly one of 20 parallel registrations use an invitation', async () => {
    await setMode('invite');
    const created = await invite();
    expect(created.url).toMatch(new RegExp(`^${app.baseUrl}/register\\?invite=[A-Za-z0-9_-]{22,}$`));
    // Only the digest is kept.
    const stored = await sql<{ token_hash: string }>(app, 'SELECT token_hash FROM invites WHERE id = $1', [created.id]);
    expect(stored[0]!.token_hash).not.toContain(tokenOf(created.url));

    const emails = Array.from({ length: 20 }, (_, i) => address(`race${i}`));
    const answers = await Promise.all(emails.map((email) => register(email, tokenOf(created.url))));
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const lost of answers.filter((answer) => answer.response.status === 409)) {
      expect(lost.error).toEqual({ code: 'CONFLICT', error: '该邀请链接已被使用' });
    }
    const made = await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM users WHERE email = ANY($1)', [emails]);
    expect(made[0]!.n).toBe(1);
    const winner = answers.find((answer) => answer.response.status === 200)!.data!.user!;
    const { invites } = await unwrap(root.console.GET('/api/admin/invites'));
    expect(invites.find((row) => row.id === created.id)).toMatchObject({
      status: 'used',
      usedBy: winner.id,
      usedAt: expect.any(String),
    });
    await setMode('open');
  });

  it('refuses an invitation for another address, an expired, a revoked or an unknown one, and keeps one an account could not use', async () => {
    await setMode('invite');
    const bound = address('bound');
    const forBound = await invite({ email: bound, expiresInDays: 1 });
    expect(forBound).toMatchObject({ email: bound, expiresAt: expect.any(String) });
    const stranger = await register(address('stranger'), tokenOf(forBound.url));
    expect(stranger.response.status).toBe(403);
    // Someone who already has an account cannot use up an invitation meant for somebody else.
    const taken = await register(root.email, tokenOf(forBound.url));
    expect(taken.response.status).toBe(403);
    expect((await register(bound.toUpperCase(), tokenOf(forBound.url))).response.status).toBe(200);

    const open = await invite();
    const existing = await register(root.email, tokenOf(open.url));
    expect(existing.response.status).toBe(409);
    expect(existing.error).toMatchObject({ error: '该电子邮件已注册' });
    // The failed registration left the invitation unused.
    expect((await register(address('after-conflict'), tokenOf(open.url))).response.status).toBe(200);

    const expiring = await invite();
    await sql(app, "UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = $1", [expiring.id]);
    const expired = await register(address('late'), tokenOf(expiring.url));
    expect(expired.response.status).toBe(403);
    expect(expired.error!.error).toContain('过期');

    const revoked = await invite();
    expect((await root.console.DELETE('/api/admin/invites/{id}', { params: { path: { id: revoked.id } } })).response.status).toBe(
      204,
    );
    expect((await root.console.DELETE('/api/admin/invites/{id}', { params: { path: { id: revoked.id } } })).response.status).toBe(
      404,
    );
    expect((await register(address('revoked'), tokenOf(revoked.url))).response.status).toBe(403);
    expect((await register(address('unknown'), 'x'.repeat(32))).response.status).toBe(403);

    for (const expiresInDays of [0, 91, 1.5]) {
      const bad = await root.console.POST('/api/admin/invites', { body: { expiresInDays } });
      expect(bad.response.status).toBe(400);
      expect(bad.error).toMatchObject({ code: 'VALIDATION', field: 'expiresInDays' });
    }
    const { events } = await unwrap(
      root.console.GET('/api/admin/audit', { params: { query: { action: 'admin.invite_revoked' } } }),
    );
    expect(events[0]).toMatchObject({ targetId: revoked.id, actorId: root.userId });
    await setMode('open');
  });
});

describe('registration modes with e-mail configured', () => {
  let smtp: SmtpReceiver;
  let app: RunningApp;
  let anonymous: SharedownClient;
  let root: TestUser;

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    app = await startApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sharedown <noreply@sharedown.test>' } });
    anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    // The first account, made by its first sign-in with an e-mail code, is the administrator.
    const email = address('root');
    expect((await anonymous.POST('/api/auth/email-code', { body: { email } })).response.status).toBe(200);
    const code = SmtpReceiver.codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Sign-in code')));
    const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code } });
    expect(verified.data!.user.isAdmin).toBe(true);
    const cookie = /sharedown_session=[^;]+/.exec(verified.response.headers.get('set-cookie') ?? '')![0];
    root = {
      email,
      userId: verified.data!.user.id,
      cookie,
      console: createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } }),
    } as TestUser;
  });
  afterAll(async () => {
    await app?.cleanup();
    await smtp?.stop();
  });

  const setMode = (registration: 'open' | 'invite' | 'closed') =>
    unwrap(root.console.PATCH('/api/admin/settings', { body: { registration } }));

  it('sends no sign-in code to an unknown address and makes no account unless registration is open', async () => {
    expect(await unwrap(root.console.GET('/api/admin/settings'))).toEqual({ registration: 'open', chosen: false });
    for (const mode of ['closed', 'invite'] as const) {
      await setMode(mode);
      const stranger = address(`code-${mode}`);
      expect((await anonymous.POST('/api/auth/email-code', { body: { email: stranger } })).response.status).toBe(200);
      await drained(app, 'mail');
      expect(smtp.to(stranger)).toHaveLength(0);
      const verify = await anonymous.POST('/api/auth/email-code/verify', { body: { email: stranger, code: '123456' } });
      expect(verify.response.status).toBe(401);
      const registered = await anonymous.POST('/api/auth/register', { body: { email: stranger, password: PASSWORD } });
      expect(registered.response.status).toBe(403);
    }
    await setMode('open');
    const welcome = address('code-open');
    expect((await anonymous.POST('/api/auth/email-code', { body: { email: welcome } })).response.status).toBe(200);
    const mail = await smtp.waitFor(welcome, (message) => message.subject.includes('Sign-in code'));
    const verified = await anonymous.POST('/api/auth/email-code/verify', {
      body: { email: welcome, code: SmtpReceiver.codeOf(mail) },
    });
    expect(verified.response.status).toBe(200);
    expect(verified.data!.user.isAdmin).toBe(false);
  });

  it('verifies an invited registration by e-mail and uses the invitation once', async () => {
    await setMode('invite');
    const created = await unwrap(root.console.POST('/api/admin/invites', { body: {} }));
    const token = new URL(created.url).searchParams.get('invite')!;
    const guest = address('guest');
    const first = await anonymous.POST('/api/auth/register', { body: { email: guest, password: PASSWORD, invite: token } });
    expect(first.data).toEqual({ verificationRequired: true });
    await smtp.waitFor(guest, (mail) => mail.subject.includes('Verify'));
    const second = await anonymous.POST('/api/auth/register', {
      body: { email: address('second'), password: PASSWORD, invite: token },
    });
    expect(second.response.status).toBe(409);
    const rows = await sql<{ used_by: string | null }>(app, 'SELECT used_by FROM invites WHERE id = $1', [created.id]);
    const made = await sql<{ id: string }>(app, 'SELECT id FROM users WHERE email = $1', [guest]);
    expect(rows[0]!.used_by).toBe(made[0]!.id);
    await setMode('open');
  });

  it('answers an invited registration the same whether or not the address has an account, and uses the invitation either way', async () => {
    await setMode('invite');
    const [forTaken, forNew] = await Promise.all([
      unwrap(root.console.POST('/api/admin/invites', { body: {} })),
      unwrap(root.console.POST('/api/admin/invites', { body: {} })),
    ]);
    const register = (email: string, url: string) =>
      anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD, invite: tokenOf(url) } });
    const taken = await register(root.email, forTaken.url);
    const fresh = await register(address('invited'), forNew.url);
    for (const answer of [taken, fresh]) {
      expect(answer.response.status).toBe(200);
      expect(answer.data).toEqual({ verificationRequired: true });
      expect(answer.response.headers.get('set-cookie')).toBeNull();
    }
    expect(taken.response.headers.get('content-length')).toBe(fresh.response.headers.get('content-length'));
    // Whoever holds the invitations learns nothing by trying them again: both are used.
    for (const used of [forTaken, forNew]) {
      const again = await register(address('again'), used.url);
      expect(again.response.status).toBe(409);
      expect(again.error).toEqual({ code: 'CONFLICT', error: '该邀请链接已被使用' });
    }
    const { invites } = await unwrap(root.console.GET('/api/admin/invites'));
    expect(invites.find((row) => row.id === forTaken.id)).toMatchObject({ status: 'used', usedBy: null });
    expect(invites.find((row) => row.id === forNew.id)).toMatchObject({ status: 'used', usedBy: expect.any(String) });
    // The owner of the taken address hears of the attempt, as after any registration of it.
    await smtp.waitFor(root.email, (mail) => mail.subject.includes('Registration attempt'));
    await setMode('open');
  });
});

describe('administrators with e-mail configured', () => {
  const BOSS = `boss-${process.pid}@example.net`;
  let smtp: SmtpReceiver;
  let app: RunningApp;
  let anonymous: SharedownClient;

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    app = await startApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sharedown <noreply@sharedown.test>', ADMIN_EMAILS: BOSS.toUpperCase() },
    });
    anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  });
  afterAll(async () => {
    await app?.cleanup();
    await smtp?.stop();
  });

  const register = (email: string) => anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD } });
  const login = (email: string) => anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD } });
  /** Proves the address with the code its registration mailed; the answer signs in. */
  async function prove(email: string) {
    const code = SmtpReceiver.codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Verify')));
    const verified = await anonymous.POST('/api/auth/verify-email', { body: { email, code } });
    expect(verified.response.status).toBe(200);
    const cookie = /sharedown_session=[^;]+/.exec(verified.response.headers.get('set-cookie') ?? '')![0];
    return { user: verified.data!.user, console: createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } }) };
  }
  async function expectUnprovenRefused(email: string) {
    const refused = await login(email);
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ code: 'FORBIDDEN', error: expect.stringContaining('尚未验证'), emailUnverified: true });
    expect(refused.response.headers.get('set-cookie')).toBeNull();
  }

  it('makes one founder of parallel first registrations, and an administrator of it only once its address is proven', async () => {
    const emails = Array.from({ length: 8 }, (_, i) => address(`founder${i}`));
    const answers = await Promise.all(emails.map((email) => register(email)));
    for (const answer of answers) expect(answer.data).toEqual({ verificationRequired: true });
    const founders = await sql<{ email: string }>(app, "SELECT email FROM users WHERE role = 'admin'");
    expect(founders).toHaveLength(1);
    const founder = founders[0]!.email;
    const other = emails.find((email) => email !== founder)!;

    // Whoever typed an address and a password has proven nothing yet: no session, no rights.
    await expectUnprovenRefused(founder);
    await expectUnprovenRefused(other);

    expect((await prove(other)).user).toMatchObject({ email: other, emailVerified: true, isAdmin: false });
    const proven = await prove(founder);
    expect(proven.user).toMatchObject({ email: founder, emailVerified: true, isAdmin: true });
    expect((await unwrap(proven.console.GET('/api/auth/session'))).user.isAdmin).toBe(true);
    expect((await proven.console.GET('/api/admin/users')).response.status).toBe(200);
    const signedIn = await login(founder);
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.data!.user.isAdmin).toBe(true);
  });

  it('makes an ADMIN_EMAILS address an administrator only once its mailbox proved it', async () => {
    expect((await register(BOSS)).data).toEqual({ verificationRequired: true });
    await expectUnprovenRefused(BOSS);
    const [row] = await sql<{ role: string; verified: boolean }>(
      app,
      'SELECT role, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1',
      [BOSS],
    );
    expect(row).toEqual({ role: 'user', verified: false });

    const proven = await prove(BOSS);
    expect(proven.user).toMatchObject({ emailVerified: true, isAdmin: true });
    expect((await proven.console.GET('/api/admin/settings')).response.status).toBe(200);
    const signedIn = await login(BOSS);
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.data!.user.isAdmin).toBe(true);
  });
});
