import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload } from '../support/browser.js';
import { drained } from '../support/queues.js';
import { SmtpReceiver, type ReceivedMail } from '../support/smtp-receiver.js';

const PASSWORD = 'correct horse battery';
const DOCUMENT = '# Board minutes\n\nOnly for the board.';
const DOCUMENT_TEXT = 'Only for the board.';

let counter = 0;
/** A fresh address per use, so the per-address throttles of one test never touch another's. */
function address(label: string): string {
  return `${label}-${process.pid}-${++counter}@corp.test`;
}

let clients = 0;
/** A client address of its own (the app trusts loopback as its proxy), so per-client buckets stay apart. */
function client(): Record<string, string> {
  return { 'x-forwarded-for': `198.51.100.${++clients}` };
}

const codeOf = SmtpReceiver.codeOf;

/** Signs in with a mailed code (making the account on first use); the session cookie. */
async function codeSignIn(
  app: RunningApp,
  smtp: SmtpReceiver,
  email: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  const before = smtp.to(email).length;
  expect((await anonymous.POST('/api/auth/email-code', { body: { email }, headers })).response.status).toBe(200);
  const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Sign-in code'), { after: before }));
  const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers });
  expect(verified.response.status).toBe(200);
  return sessionCookieOf(verified.response);
}

/** A proven account with a session and an API token, shaped like the other suites' users. */
async function provenUserOf(
  app: RunningApp,
  smtp: SmtpReceiver,
  email: string,
  headers: Record<string, string> = {},
): Promise<TestUser> {
  const cookie = await codeSignIn(app, smtp, email, headers);
  const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
  const { user } = await unwrap(consoleClient.GET('/api/auth/session'));
  const created = await unwrap(consoleClient.POST('/api/tokens', { body: { name: 'e2e', rateLimitPerMinute: 600 } }));
  return {
    email,
    password: '',
    cookie,
    userId: user.id,
    segment: user.segment,
    token: created.plaintext,
    tokenId: created.token.id,
    api: createSharedownClient({ baseUrl: app.baseUrl, token: created.plaintext }),
    console: consoleClient,
  };
}

/**
 * A session of an account whose address was never proven. With e-mail configured its password
 * opens nothing until the address is proven, so such a session is one kept from before e-mail was
 * set up: written as the service writes sessions, only the digest of the cookie's value stored.
 */
async function keptSession(app: RunningApp, email: string): Promise<{ cookie: string; userId: string }> {
  const [account] = await sql<{ id: string }>(app, 'SELECT id FROM users WHERE email = $1', [email]);
  const value = randomBytes(32).toString('base64url');
  await sql(app, `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
    createHash('sha256').update(value).digest('hex'),
    account!.id,
  ]);
  return { cookie: `sharedown_session=${value}`, userId: account!.id };
}

/** The answer to a password sign-in of an account whose address was never proven. */
function expectUnprovenRefused(login: { response: Response; error?: unknown }): void {
  expect(login.response.status).toBe(403);
  expect(login.error).toEqual({ code: 'FORBIDDEN', error: expect.stringContaining('尚未验证'), emailUnverified: true });
  expect(login.response.headers.get('set-cookie')).toBeNull();
}

describe('e-mail flows against a real SMTP receiver', () => {
  let smtp: SmtpReceiver;
  let app: RunningApp;
  let anonymous: SharedownClient;
  let owner: TestUser;

  const console = (cookie: string) => createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
  const sessionStatus = async (cookie: string) =>
    (await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } })).status;

  /** Mails a sign-in code to `email` and waits for it. */
  async function mailedSignInCode(email: string, headers = client()): Promise<string> {
    const before = smtp.to(email).length;
    expect((await anonymous.POST('/api/auth/email-code', { body: { email }, headers })).response.status).toBe(200);
    return codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Sign-in code'), { after: before }));
  }

  const signInByCode = (email: string) => codeSignIn(app, smtp, email, client());
  const provenUser = (email: string) => provenUserOf(app, smtp, email, client());

  /** Registers with a password (no session with e-mail on; the password opens nothing yet): an unproven account. */
  async function unprovenUser(email: string): Promise<{ cookie: string; userId: string }> {
    const registered = await anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD }, headers: client() });
    expect(registered.data).toEqual({ verificationRequired: true });
    // Its code arrives on its own; waiting for it keeps it apart from any code asked for later.
    await smtp.waitFor(email, (mail) => mail.subject.includes('Verify'));
    expectUnprovenRefused(await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD }, headers: client() }));
    const kept = await keptSession(app, email);
    expect((await unwrap(console(kept.cookie).GET('/api/auth/session'))).user.emailVerified).toBe(false);
    return kept;
  }

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    app = await startApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sharedown <noreply@sharedown.test>', TRUST_PROXY: '127.0.0.1' },
    });
    anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    owner = await provenUser(address('owner'));
  });
  afterAll(async () => {
    await app?.cleanup();
    await smtp?.stop();
  });

  it('tells the console that e-mail codes are offered', async () => {
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ emailCodes: true });
  });

  it('answers registration the same for a new and a taken address, and mails each what fits', async () => {
    const fresh = address('fresh');
    const register = (email: string) =>
      anonymous.POST('/api/auth/register', { body: { email, password: 'another long password' }, headers: client() });
    const [forNew, forTaken] = await Promise.all([register(fresh), register(owner.email.toUpperCase())]);
    for (const answer of [forNew, forTaken]) {
      expect(answer.response.status).toBe(200);
      expect(answer.response.headers.get('set-cookie')).toBeNull();
    }
    expect(forNew.data).toEqual({ verificationRequired: true });
    expect(forTaken.data).toEqual(forNew.data);
    expect(forTaken.response.headers.get('content-length')).toBe(forNew.response.headers.get('content-length'));

    const warning = await smtp.waitFor(owner.email, (mail) => mail.subject.includes('Registration attempt'));
    expect(warning.text).toContain('已经有账号');
    expect(warning.text).toContain('Forgot password');
    expect(warning.text).not.toMatch(/\b\d{6}\b/);
    expect(warning.from).toBe('noreply@sharedown.test');
    const verification = await smtp.waitFor(fresh, (mail) => mail.subject.includes('Verify your e-mail address'));
    expect(verification.html).toContain(codeOf(verification));
    // Only the code and what it is for: nothing about the account.
    expect(verification.text).not.toContain(fresh.split('@')[0]);
    // The taken address's account is untouched.
    const [row] = await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      owner.email,
    ]);
    expect(row!.n).toBe(1);
  });

  it('signs in and proves the address with the code mailed at registration', async () => {
    const email = address('registrant');
    await anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD }, headers: client() });
    const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Verify')));
    // Until then the password opens nothing: whoever typed it has not shown the mailbox is theirs.
    expectUnprovenRefused(await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD }, headers: client() }));
    const wrong = await anonymous.POST('/api/auth/verify-email', {
      body: { email, code: code === '000000' ? '111111' : '000000' },
      headers: client(),
    });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error).toMatchObject({ code: 'UNAUTHENTICATED' });

    const verified = await anonymous.POST('/api/auth/verify-email', { body: { email, code }, headers: client() });
    expect(verified.response.status).toBe(200);
    expect(verified.data!.user).toMatchObject({ email, emailVerified: true, hasPassword: true });
    const cookie = sessionCookieOf(verified.response);
    expect(await sessionStatus(cookie)).toBe(200);
    // The password chosen at registration still works.
    const login = await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD }, headers: client() });
    expect(login.response.status).toBe(200);
    // Used once.
    const again = await anonymous.POST('/api/auth/verify-email', { body: { email, code }, headers: client() });
    expect(again.response.status).toBe(401);
  });

  it('lets an unproven signed-in account ask for a code and prove its address without a new session', async () => {
    const email = address('legacy');
    const { cookie } = await unprovenUser(email);
    const before = smtp.to(email).length;
    const sent = await console(cookie).POST('/api/auth/verify-email/send', { headers: client() });
    expect(sent.response.status).toBe(200);
    const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Verify'), { after: before }));
    const verified = await console(cookie).POST('/api/auth/verify-email', { body: { email, code }, headers: client() });
    expect(verified.response.status).toBe(200);
    expect(verified.response.headers.get('set-cookie')).toBeNull();
    expect(verified.data!.user.emailVerified).toBe(true);
    const again = await console(cookie).POST('/api/auth/verify-email/send', { headers: client() });
    expect(again.response.status).toBe(409);
  });

  it('creates a proven account without a password on the first sign-in with a code', async () => {
    const email = address('newcomer');
    const code = await mailedSignInCode(email);
    const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers: client() });
    expect(verified.response.status).toBe(200);
    expect(verified.data!.user).toMatchObject({ email, emailVerified: true, hasPassword: false });
    const [row] = await sql<{ password_hash: string | null; method: string }>(
      app,
      `SELECT u.password_hash, s.method FROM users u JOIN sessions s ON s.user_id = u.id WHERE u.id = $1`,
      [verified.data!.user.id],
    );
    expect(row).toEqual({ password_hash: null, method: 'email-code' });
  });

  it('answers a code request the same for an unknown address, and stores codes only as digests', async () => {
    const known = owner.email;
    const unknown = address('nobody');
    const before = smtp.to(known).length;
    const [a, b] = await Promise.all([
      anonymous.POST('/api/auth/email-code', { body: { email: known }, headers: client() }),
      anonymous.POST('/api/auth/email-code', { body: { email: unknown }, headers: client() }),
    ]);
    expect([a.response.status, b.response.status]).toEqual([200, 200]);
    expect(a.data).toEqual({ ok: true });
    expect(b.data).toEqual({ ok: true });
    const code = codeOf(await smtp.waitFor(known, (mail) => mail.subject.includes('Sign-in code'), { after: before }));
    await drained(app, 'mail');
    expect(smtp.to(unknown)).toHaveLength(1);
    const stored = await sql<{ code_hash: string }>(app, 'SELECT code_hash FROM email_codes WHERE lower(email) = lower($1)', [
      known,
    ]);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.code_hash).not.toContain(code);
  });

  it('accepts a code exactly once out of parallel verifies, on first use and for an existing account', async () => {
    const email = address('racer');
    const sessions = async () =>
      (await sql(app, 'SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE lower(u.email) = lower($1)', [email]))
        .length;
    for (const round of [1, 2]) {
      const code = await mailedSignInCode(email);
      const headers = client();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers })),
      );
      const statuses = answers.map((answer) => answer.response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status !== 200).every((status) => status === 409 || status === 401)).toBe(true);
      expect(await sql(app, 'SELECT id FROM users WHERE lower(email) = lower($1)', [email])).toHaveLength(1);
      expect(await sessions()).toBe(round);
    }
  });

  it('refuses an expired code, and a newer code replaces the older one', async () => {
    const email = address('late');
    const first = await mailedSignInCode(email);
    const second = await mailedSignInCode(email);
    if (first !== second) {
      const replaced = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code: first }, headers: client() });
      expect(replaced.response.status).toBe(401);
    }
    await sql(app, `UPDATE email_codes SET expires_at = now() - interval '1 second' WHERE lower(email) = lower($1)`, [email]);
    const expired = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code: second }, headers: client() });
    expect(expired.response.status).toBe(401);
    expect(expired.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await sql(app, 'SELECT id FROM users WHERE lower(email) = lower($1)', [email])).toHaveLength(0);
  });

  it('lets five wrong tries kill a code: the sixth try fails even with the right code', async () => {
    const email = address('guessed');
    const code = await mailedSignInCode(email);
    const wrongCodes = ['000000', '111111', '222222', '333333', '444444', '555555'].filter((c) => c !== code).slice(0, 5);
    const headers = client();
    const wrong = await Promise.all(
      wrongCodes.map((guess) => anonymous.POST('/api/auth/email-code/verify', { body: { email, code: guess }, headers })),
    );
    expect(wrong.map((answer) => answer.response.status)).toEqual([401, 401, 401, 401, 401]);
    const right = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers: client() });
    expect(right.response.status).toBe(401);
    const [row] = await sql<{ attempts: number }>(app, 'SELECT attempts FROM email_codes WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(row!.attempts).toBe(5);
  });

  it('throttles code requests per address, whoever asks, and per client', async () => {
    const email = address('flooded');
    const send = (target: string, headers = client()) =>
      anonymous.POST('/api/auth/email-code', { body: { email: target }, headers });
    for (let i = 0; i < 5; i++) expect((await send(email)).response.status).toBe(200);
    const refused = await send(email.toUpperCase());
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address from one busy client: 20 an hour.
    const busy = client();
    for (let i = 0; i < 20; i++) expect((await send(address('spread'), busy)).response.status).toBe(200);
    expect((await send(address('spread'), busy)).response.status).toBe(429);
  });

  it('throttles code tries per address and client before looking at the code', async () => {
    const email = address('throttled');
    const headers = client();
    const tries = await Promise.all(
      Array.from({ length: 14 }, () =>
        anonymous.POST('/api/auth/email-code/verify', { body: { email, code: '123456' }, headers }),
      ),
    );
    const statuses = tries.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  });

  it('resets a forgotten password: every session ends, the new password works', async () => {
    const email = address('forgetful');
    const user = await provenUser(email);
    const setFirst = await user.console.POST('/api/auth/password', { body: { newPassword: PASSWORD } });
    expect(setFirst.response.status).toBe(200);
    const other = sessionCookieOf(
      (await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD }, headers: client() })).response,
    );
    expect(await sessionStatus(other)).toBe(200);

    const unknown = await anonymous.POST('/api/auth/password-reset', { body: { email: address('ghost') }, headers: client() });
    expect(unknown.response.status).toBe(200);
    expect((await anonymous.POST('/api/auth/password-reset', { body: { email }, headers: client() })).response.status).toBe(200);
    const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Password reset code')));
    const confirmed = await anonymous.POST('/api/auth/password-reset/confirm', {
      body: { email, code, newPassword: 'a brand new password' },
      headers: client(),
    });
    expect(confirmed.response.status).toBe(200);
    const fresh = sessionCookieOf(confirmed.response);
    expect(await sessionStatus(fresh)).toBe(200);
    expect(await sessionStatus(other)).toBe(401);
    expect(await sessionStatus(user.cookie)).toBe(401);
    const [row] = await sql<{ method: string }>(app, 'SELECT method FROM sessions WHERE user_id = $1', [user.userId]);
    expect(row!.method).toBe('password-reset');
    const login = (password: string) => anonymous.POST('/api/auth/login', { body: { email, password }, headers: client() });
    expect((await login('a brand new password')).response.status).toBe(200);
    expect((await login(PASSWORD)).response.status).toBe(401);
    // The code is spent.
    const again = await anonymous.POST('/api/auth/password-reset/confirm', {
      body: { email, code, newPassword: 'yet another password' },
      headers: client(),
    });
    expect(again.response.status).toBe(401);
    // No mail for an address without an account.
    await drained(app, 'mail');
    expect(smtp.messages.some((mail) => mail.to.some((to) => to.startsWith('ghost-')))).toBe(false);
  });

  it('refuses a password reset of a disabled account and leaves its code unused', async () => {
    const email = address('suspended');
    const user = await provenUser(email);
    await unwrap(user.console.POST('/api/auth/password', { body: { newPassword: PASSWORD } }));
    const setDisabled = (disabled: boolean) =>
      unwrap(owner.console.PATCH('/api/admin/users/{id}', { params: { path: { id: user.userId } }, body: { disabled } }));
    await setDisabled(true);
    expect((await anonymous.POST('/api/auth/password-reset', { body: { email }, headers: client() })).response.status).toBe(200);
    const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Password reset code')));
    const state = () =>
      sql<{ password_hash: string; used: boolean[] }>(
        app,
        `SELECT u.password_hash, array(SELECT c.used_at IS NOT NULL FROM email_codes c
                                       WHERE lower(c.email) = lower(u.email) AND c.purpose = 'reset') AS used
         FROM users u WHERE u.id = $1`,
        [user.userId],
      );
    const [before] = await state();
    expect(before!.used).toEqual([false]);

    const confirm = () =>
      anonymous.POST('/api/auth/password-reset/confirm', {
        body: { email, code, newPassword: 'a password for a disabled account' },
        headers: client(),
      });
    const refused = await confirm();
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ code: 'FORBIDDEN', error: expect.stringContaining('账户已停用') });
    expect(refused.response.headers.get('set-cookie')).toBeNull();
    expect(await state()).toEqual([before]);

    // Enabled again, the very same code still works: it was never used.
    await setDisabled(false);
    const confirmed = await confirm();
    expect(confirmed.response.status).toBe(200);
    expect((await state())[0]!.used).toEqual([true]);
  });

  it('refuses a sign-in code of a disabled account before using it, and changes nothing of the account', async () => {
    const email = address('suspended-code');
    const user = await unprovenUser(email);
    const setDisabled = (disabled: boolean) =>
      unwrap(owner.console.PATCH('/api/admin/users/{id}', { params: { path: { id: user.userId } }, body: { disabled } }));
    await setDisabled(true);
    const code = await mailedSignInCode(email);
    const state = () =>
      sql<{ verified: boolean; password: boolean; used: boolean[] }>(
        app,
        `SELECT u.email_verified_at IS NOT NULL AS verified, u.password_hash IS NOT NULL AS password,
                array(SELECT c.used_at IS NOT NULL FROM email_codes c
                      WHERE lower(c.email) = lower(u.email) AND c.purpose = 'sign-in') AS used
         FROM users u WHERE u.id = $1`,
        [user.userId],
      );
    const [before] = await state();
    expect(before).toEqual({ verified: false, password: true, used: [false] });
    const verify = () => anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers: client() });
    const refused = await verify();
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', error: expect.stringContaining('账户已停用') });
    expect(refused.response.headers.get('set-cookie')).toBeNull();
    // Not claimed: the password, the unproven address and the code are as they were.
    expect(await state()).toEqual([before]);

    await setDisabled(false);
    expect((await verify()).response.status).toBe(200);
    expect(await state()).toEqual([{ verified: true, password: false, used: [true] }]);
  });

  it('takes an unproven account away from whoever registered it once the mailbox owner signs in with a code', async () => {
    const email = address('squatted');
    const squatter = await unprovenUser(email);
    const token = await unwrap(console(squatter.cookie).POST('/api/tokens', { body: { name: 'squatter' } }));
    const victimCookie = await signInByCode(email);
    expect(await sessionStatus(victimCookie)).toBe(200);
    expect(await sessionStatus(squatter.cookie)).toBe(401);
    const login = await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD }, headers: client() });
    expect(login.response.status).toBe(401);
    const me = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token.plaintext}` } });
    expect(me.status).toBe(401);
    const { user } = await unwrap(console(victimCookie).GET('/api/auth/session'));
    expect(user).toMatchObject({ id: squatter.userId, emailVerified: true, hasPassword: false });
  });

  it('asks for the second factor of an account with two-factor authentication, keeping the e-mail code usable', async () => {
    const email = address('careful');
    const user = await provenUser(email);
    const setup = await unwrap(user.console.POST('/api/auth/2fa/setup'));
    const totp = (offset = 0) => generate({ secret: setup.secret, epoch: Math.floor(Date.now() / 1000) + offset });
    await unwrap(user.console.POST('/api/auth/2fa/enable', { body: { code: await totp() } }));

    const code = await mailedSignInCode(email);
    const first = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers: client() });
    expect(first.response.status).toBe(401);
    expect(first.error).toMatchObject({ code: 'UNAUTHENTICATED', twoFactorRequired: true });
    expect(first.response.headers.get('set-cookie')).toBeNull();
    const second = await anonymous.POST('/api/auth/email-code/verify', {
      body: { email, code, twoFactorCode: await totp(30) },
      headers: client(),
    });
    expect(second.response.status).toBe(200);
    expect(await sessionStatus(sessionCookieOf(second.response))).toBe(200);
  });

  it('retries a mail the SMTP server refused for a moment', async () => {
    const email = address('patient');
    smtp.refuseNext(1, 451);
    const refusedBefore = smtp.refused;
    const code = await mailedSignInCode(email);
    expect(smtp.refused).toBe(refusedBefore + 1);
    expect(code).toMatch(/^\d{6}$/);
  });

  describe('an allowlisted link', () => {
    let path: string;
    let watermarked: string;
    const member = address('member');
    const stranger = address('stranger');

    beforeAll(async () => {
      const doc = await upload(app, owner, 'minutes.md', DOCUMENT);
      const created = await share(owner, doc.fileId, { emailAllowlist: [member, stranger] });
      path = new URL(created.url).pathname;
      const marked = await share(owner, doc.fileId, { emailAllowlist: [member], watermarkEnabled: true });
      watermarked = new URL(marked.url).pathname;
    });

    it('refuses an unproven account and admits it once its address is proven', async () => {
      const { cookie } = await unprovenUser(member);
      const visitor = new HttpVisitor(app.baseUrl).withCookie(cookie);
      const refused = await visitor.get(path);
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain(DOCUMENT_TEXT);
      expect(refused.body).toContain('尚未验证');
      expect(refused.body).toContain('data-verify-offer');

      // The page's own form mails a code to the signed-in account.
      const before = smtp.to(member).length;
      const asked = await visitor.post('/s/_email-code', { mode: 'verify', next: path });
      expect(asked.status).toBe(200);
      const code = codeOf(await smtp.waitFor(member, (mail: ReceivedMail) => mail.subject.includes('Verify'), { after: before }));
      const proven = await visitor.post('/s/_email-code/verify', { mode: 'verify', email: member, code, next: path });
      expect(proven.status).toBe(303);
      expect(proven.location).toBe(path);
      const page = await visitor.get(path);
      expect(isDocument(page)).toBe(true);
      expect(page.body).toContain(DOCUMENT_TEXT);
      const marked = await visitor.get(watermarked);
      expect(marked.body).toContain(`<div class="sd-wm" aria-hidden="true"><span>${member} · `);
    });

    it("opens no session for an unproven account through the viewer's password form, and offers the proof", async () => {
      const email = address('viewer-password');
      await unprovenUser(email);
      const visitor = new HttpVisitor(app.baseUrl);
      const form = await visitor.post('/s/_login', { email, password: PASSWORD, next: path });
      expect(form.status).toBe(403);
      expect(form.body).toContain('data-verify-offer');
      expect(visitor.cookies.has('sharedown_session')).toBe(false);
      expect(form.body).not.toContain(DOCUMENT_TEXT);
    });

    it('does not name an unproven account in the watermark', async () => {
      const email = address('unproven-viewer');
      const { cookie } = await unprovenUser(email);
      const doc = await upload(app, owner, 'marked.md', DOCUMENT);
      const created = await share(owner, doc.fileId, { requireLogin: true, watermarkEnabled: true });
      const page = await new HttpVisitor(app.baseUrl).withCookie(cookie).get(new URL(created.url).pathname);
      expect(isDocument(page)).toBe(true);
      expect(page.body).not.toContain(email);
      expect(page.body).toMatch(/<div class="sd-wm" aria-hidden="true"><span>127\.0\.0\.0\/24 · /);
    });

    it("signs a visitor in through the viewer's e-mail code form and shows the document", async () => {
      const visitor = new HttpVisitor(app.baseUrl);
      const gate = await visitor.get(path);
      expect(gate.status).toBe(401);
      expect(gate.body).toContain('data-email-code');
      const asked = await visitor.post('/s/_email-code', { email: stranger, next: path });
      expect(asked.status).toBe(200);
      expect(asked.body).toContain('name="code"');
      const code = codeOf(await smtp.waitFor(stranger, (mail) => mail.subject.includes('Sign-in code')));
      const wrong = await visitor.post('/s/_email-code/verify', {
        mode: 'sign-in',
        email: stranger,
        code: code === '999999' ? '888888' : '999999',
        next: path,
      });
      expect(wrong.status).toBe(401);
      const signedIn = await visitor.post('/s/_email-code/verify', { mode: 'sign-in', email: stranger, code, next: path });
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe(path);
      expect(visitor.cookies.has('sharedown_session')).toBe(true);
      const page = await visitor.get(path);
      expect(isDocument(page)).toBe(true);
      expect(page.body).toContain(DOCUMENT_TEXT);
    });

    it('refuses viewer form posts from another origin', async () => {
      const visitor = new HttpVisitor(app.baseUrl);
      const forged = await visitor.post('/s/_email-code', { email: stranger, next: path }, { origin: 'https://evil.example' });
      expect(forged.status).toBe(403);
    });
  });
});

describe('e-mail flows without SMTP_URL', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => app?.cleanup());

  it('has none of the e-mail routes, and registration signs in as before', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    // The bodies are not even looked at: no route, whatever is sent.
    const body = { email: 'someone@corp.test', code: '123456', newPassword: 'long enough password', surprise: true };
    const answers = await Promise.all([
      anonymous.POST('/api/auth/email-code', { body }),
      anonymous.POST('/api/auth/email-code/verify', { body }),
      anonymous.POST('/api/auth/verify-email', { body }),
      anonymous.POST('/api/auth/password-reset', { body }),
      anonymous.POST('/api/auth/password-reset/confirm', { body }),
    ]);
    for (const answer of answers) {
      expect(answer.response.status).toBe(404);
      expect(answer.error).toMatchObject({ code: 'NOT_FOUND' });
    }
    const user = await createUser(app.baseUrl);
    const send = await user.console.POST('/api/auth/verify-email/send');
    expect(send.response.status).toBe(404);
    const { user: me } = await unwrap(user.console.GET('/api/auth/session'));
    expect(me.emailVerified).toBe(false);
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ emailCodes: false, oidcLabel: null });

    const visitor = new HttpVisitor(app.baseUrl);
    expect((await visitor.get('/s/_email-code')).status).toBe(404);
    expect((await visitor.post('/s/_email-code', { email: 'someone@corp.test', next: '/s/' })).status).toBe(404);
    const login = await visitor.get('/s/_login?next=/s/');
    expect(login.body).not.toContain('data-email-code');
  });

  it('tells an unproven visitor of an allowlisted link that this instance cannot verify addresses', async () => {
    const [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    const doc = await upload(app, alice, 'list.md', DOCUMENT);
    const created = await share(alice, doc.fileId, { emailAllowlist: [bob.email] });
    const path = new URL(created.url).pathname;
    const refused = await new HttpVisitor(app.baseUrl).withCookie(bob.cookie).get(path);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('data-cannot-verify');
    expect(refused.body).not.toContain(DOCUMENT_TEXT);
    await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [bob.userId]);
    expect(isDocument(await new HttpVisitor(app.baseUrl).withCookie(bob.cookie).get(path))).toBe(true);
  });
});

describe('e-mail codes with registration closed', () => {
  let smtp: SmtpReceiver;
  let app: RunningApp;
  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    app = await startApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@sharedown.test', ALLOW_REGISTRATION: 'false' } });
  });
  afterAll(async () => {
    await app?.cleanup();
    await smtp?.stop();
  });

  it('sends no code to an unknown address and creates no account, but answers the same', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    const unknown = 'newcomer@corp.test';
    const asked = await anonymous.POST('/api/auth/email-code', { body: { email: unknown } });
    expect(asked.response.status).toBe(200);
    expect(asked.data).toEqual({ ok: true });
    await drained(app, 'mail');
    expect(smtp.to(unknown)).toHaveLength(0);
    // A known address is mailed on the same instance.
    await sql(
      app,
      `INSERT INTO users (email, segment, quota_bytes, email_verified_at) VALUES ('known@corp.test', 'known', 0, now())`,
    );
    await anonymous.POST('/api/auth/email-code', { body: { email: 'known@corp.test' } });
    await smtp.waitFor('known@corp.test');
    const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email: unknown, code: '123456' } });
    expect(verified.response.status).toBe(401);
    expect(await sql(app, 'SELECT id FROM users WHERE email = $1', [unknown])).toHaveLength(0);
  });
});

describe('e-mail codes with a separate render host', () => {
  let smtp: SmtpReceiver;
  let app: RunningApp;
  const renderBase = 'http://render.sharedown.test:8443';

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    // One process plays both origins: the console at 127.0.0.1, the render host by its Host header.
    app = await startApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@sharedown.test', RENDER_URL: renderBase } });
  });
  afterAll(async () => {
    await app?.cleanup();
    await smtp?.stop();
  });

  /** Follows the bounce from the console origin back to the render host; the visitor there ends up signed in. */
  async function bounceBack(
    consoleVisitor: HttpVisitor,
    renderVisitor: HttpVisitor,
    bounce: string,
    path: string,
  ): Promise<void> {
    const issued = await consoleVisitor.get(bounce);
    expect(issued.status).toBe(303);
    expect(issued.location!.startsWith(`${renderBase}/s/_bounce/return?ticket=`)).toBe(true);
    const returned = await renderVisitor.get(issued.location!);
    expect(returned.location).toBe(path);
  }

  it('signs a visitor in with a code on PUBLIC_URL and carries the sign-in over to the render host', async () => {
    const owner = await provenUserOf(app, smtp, 'owner@corp.test');
    const doc = await upload(app, owner, 'remote.md', DOCUMENT);
    const path = new URL((await share(owner, doc.fileId, { emailAllowlist: ['guest@corp.test'] })).url).pathname;

    const renderVisitor = new HttpVisitor(renderBase, undefined, app.baseUrl);
    const gate = await renderVisitor.get(path);
    expect(gate.status).toBe(401);
    const bounce = /href="([^"]+\/s\/_bounce\?next=[^"]+)"/.exec(gate.body)![1]!.replace(/&amp;/g, '&');

    // On the console origin: not signed in, so the bounce leads to the sign-in page, which offers a code.
    const consoleVisitor = new HttpVisitor(app.baseUrl);
    const toLogin = await consoleVisitor.get(bounce);
    expect(toLogin.status).toBe(303);
    const login = await consoleVisitor.get(toLogin.location!);
    expect(login.body).toContain('data-email-code');
    const next = /name="next" value="([^"]+)"/.exec(login.body)![1]!.replace(/&amp;/g, '&');
    expect(next).toBe(`/s/_bounce?next=${encodeURIComponent(path)}`);
    // The forms live on PUBLIC_URL only.
    expect((await renderVisitor.post('/s/_email-code', { email: 'guest@corp.test', next })).status).toBe(403);

    expect((await consoleVisitor.post('/s/_email-code', { email: 'guest@corp.test', next })).status).toBe(200);
    const code = codeOf(await smtp.waitFor('guest@corp.test'));
    const verified = await consoleVisitor.post('/s/_email-code/verify', {
      mode: 'sign-in',
      email: 'guest@corp.test',
      code,
      next,
    });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe(next);
    await bounceBack(consoleVisitor, renderVisitor, next, path);
    const page = await renderVisitor.get(path);
    expect(isDocument(page)).toBe(true);
    expect(page.body).toContain(DOCUMENT_TEXT);
  });

  it('sends an unproven visitor from the render host to PUBLIC_URL to prove the address, and back', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    const email = 'late-verifier@corp.test';
    await anonymous.POST('/api/auth/register', { body: { email, password: PASSWORD } });
    await smtp.waitFor(email, (mail) => mail.subject.includes('Verify'));
    expectUnprovenRefused(await anonymous.POST('/api/auth/login', { body: { email, password: PASSWORD } }));
    const { cookie } = await keptSession(app, email);
    const owner = await provenUserOf(app, smtp, 'second-owner@corp.test');
    const doc = await upload(app, owner, 'later.md', DOCUMENT);
    const path = new URL((await share(owner, doc.fileId, { emailAllowlist: [email] })).url).pathname;

    // Signed in on the console origin, carried over to the render host, where the address is not proven.
    const consoleVisitor = new HttpVisitor(app.baseUrl).withCookie(cookie);
    const renderVisitor = new HttpVisitor(renderBase, undefined, app.baseUrl);
    await bounceBack(consoleVisitor, renderVisitor, `/s/_bounce?next=${encodeURIComponent(path)}`, path);
    const refused = await renderVisitor.get(path);
    expect(refused.status).toBe(403);
    const offer = /href="([^"]+)" data-verify-offer/.exec(refused.body)![1]!.replace(/&amp;/g, '&');
    expect(offer.startsWith(`${app.baseUrl}/s/_email-code?mode=verify&next=`)).toBe(true);

    const form = await consoleVisitor.get(offer);
    expect(form.status).toBe(200);
    const next = /name="next" value="([^"]+)"/.exec(form.body)![1]!.replace(/&amp;/g, '&');
    const before = smtp.to(email).length;
    expect((await consoleVisitor.post('/s/_email-code', { mode: 'verify', next })).status).toBe(200);
    const code = codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Verify'), { after: before }));
    const proven = await consoleVisitor.post('/s/_email-code/verify', { mode: 'verify', email, code, next });
    expect(proven.status).toBe(303);
    expect(proven.location).toBe(next);
    await bounceBack(consoleVisitor, renderVisitor, next, path);
    expect(isDocument(await renderVisitor.get(path))).toBe(true);
  });
});
