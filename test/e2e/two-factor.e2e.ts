import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { sql } from '../support/browser.js';

/** A code as the authenticator app shows it `offsetSeconds` from now. */
function totp(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

describe('two-factor authentication', () => {
  let app: RunningApp;
  let alice: TestUser;
  let secret: string;
  let recoveryCodes: string[];
  let anonymous: SharedownClient;

  beforeAll(async () => {
    // Behind a trusted proxy on loopback, each step can speak from its own client address.
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    alice = await createUser(app.baseUrl);
    anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  });
  afterAll(async () => app?.cleanup());

  function login(body: { email: string; password: string; code?: string }, client = '198.51.100.1') {
    return anonymous.POST('/api/auth/login', { body, headers: { 'x-forwarded-for': client } });
  }

  const sessionStatus = async (cookie: string) =>
    (await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } })).status;

  it('enrols: a pending secret, stored encrypted, behind an otpauth address for the QR code', async () => {
    const setup = await unwrap(alice.console.POST('/api/auth/2fa/setup'));
    secret = setup.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Sharedown:${alice.email}`);
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Sharedown');

    const [row] = await sql<{ totp_secret: string; enabled: boolean }>(
      app,
      'SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled FROM users WHERE id = $1',
      [alice.userId],
    );
    expect(row!.enabled).toBe(false);
    expect(row!.totp_secret).not.toContain(secret);
    expect(row!.totp_secret).toMatch(/^v1\./);
    // Pending only: signing in still needs no code.
    expect((await login({ email: alice.email, password: alice.password })).response.status).toBe(200);
  });

  it('refuses to turn on with a wrong code, and turning on ends the other sessions', async () => {
    const other = sessionCookieOf((await login({ email: alice.email, password: alice.password })).response);
    expect(await sessionStatus(other)).toBe(200);

    const wrong = await alice.console.POST('/api/auth/2fa/enable', { body: { code: '000000' } });
    expect(wrong.response.status).toBe(401);
    expect(await sessionStatus(other)).toBe(200);

    const enabled = await unwrap(alice.console.POST('/api/auth/2fa/enable', { body: { code: await totp(secret) } }));
    recoveryCodes = enabled.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await sessionStatus(other)).toBe(401);
    expect(await sessionStatus(alice.cookie)).toBe(200);
    expect((await unwrap(alice.console.GET('/api/auth/session'))).user.twoFactorEnabled).toBe(true);
    expect(await unwrap(alice.console.GET('/api/auth/2fa'))).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const stored = await sql<{ code_hash: string }>(app, 'SELECT code_hash FROM recovery_codes WHERE user_id = $1', [
      alice.userId,
    ]);
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(stored.some((row) => row.code_hash.includes(code.replace('-', '')))).toBe(false);

    const again = await alice.console.POST('/api/auth/2fa/setup');
    expect(again.response.status).toBe(409);
  });

  it('asks a right password for the code, without a session, and tells nothing on a wrong password', async () => {
    const asked = await login({ email: alice.email, password: alice.password });
    expect(asked.response.status).toBe(401);
    expect(asked.error).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED', twoFactorRequired: true });
    expect(asked.response.headers.get('set-cookie')).toBeNull();

    const wrongPassword = await login({ email: alice.email, password: 'not the password' });
    expect(wrongPassword.response.status).toBe(401);
    expect(wrongPassword.error).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    // A wrong password never reaches the code, even a right one.
    const withCode = await login({ email: alice.email, password: 'not the password', code: await totp(secret, 30) });
    expect(withCode.response.status).toBe(401);
    expect(withCode.error).not.toHaveProperty('twoFactorRequired');
  });

  it('signs in with a right code once; the same code, or an earlier one, is refused after', async () => {
    const wrong = await login({ email: alice.email, password: alice.password, code: '123456' });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error).toMatchObject({ code: 'UNAUTHENTICATED', twoFactorRequired: true });
    expect(wrong.response.headers.get('set-cookie')).toBeNull();

    // The step after the one used to turn 2FA on: a phone whose clock runs half a minute ahead.
    const code = await totp(secret, 30);
    const signedIn = await login({ email: alice.email, password: alice.password, code });
    expect(signedIn.response.status).toBe(200);
    expect(await sessionStatus(sessionCookieOf(signedIn.response))).toBe(200);

    const replayed = await login({ email: alice.email, password: alice.password, code });
    expect(replayed.response.status).toBe(401);
    expect(replayed.response.headers.get('set-cookie')).toBeNull();
    const earlier = await login({ email: alice.email, password: alice.password, code: await totp(secret) }, '198.51.100.2');
    expect(earlier.response.status).toBe(401);
  });

  it('takes a recovery code once, and of two parallel uses of one exactly one', async () => {
    const [first, second] = recoveryCodes as [string, string];
    const used = await login({ email: alice.email, password: alice.password, code: first.toUpperCase() }, '198.51.100.3');
    expect(used.response.status).toBe(200);
    const reused = await login({ email: alice.email, password: alice.password, code: first }, '198.51.100.3');
    expect(reused.response.status).toBe(401);

    const race = await Promise.all(
      [0, 1].map(() => login({ email: alice.email, password: alice.password, code: second }, '198.51.100.4')),
    );
    expect(race.map((r) => r.response.status).sort()).toEqual([200, 401]);
    expect(await unwrap(alice.console.GET('/api/auth/2fa'))).toEqual({ enabled: true, recoveryCodesLeft: 8 });
  });

  it('evaluates exactly five of 40 parallel wrong codes from one client; the owner elsewhere still gets in', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login({ email: alice.email, password: alice.password, code: String(100000 + i) }, '203.0.113.66'),
      ),
    );
    const statuses = guesses.map((g) => g.response.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    for (const guess of guesses.filter((g) => g.response.status === 429)) {
      expect(guess.error).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(guess.response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(guesses.every((g) => g.response.headers.get('set-cookie') === null)).toBe(true);

    // Refused attempts are never looked at: even right codes from that client now change nothing.
    const late = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login({ email: alice.email, password: alice.password, code: recoveryCodes[2 + (i % 6)] }, '203.0.113.66'),
      ),
    );
    expect(late.map((r) => r.response.status)).toEqual(Array(40).fill(429));
    expect(await unwrap(alice.console.GET('/api/auth/2fa'))).toEqual({ enabled: true, recoveryCodesLeft: 8 });

    const owner = await login({ email: alice.email, password: alice.password, code: recoveryCodes[2] }, '198.51.100.5');
    expect(owner.response.status).toBe(200);
  });

  it('renews the recovery codes: the old ones stop working', async () => {
    const wrong = await alice.console.POST('/api/auth/2fa/recovery-codes', { body: { code: '999999' } });
    expect(wrong.response.status).toBe(401);
    const renewed = await unwrap(alice.console.POST('/api/auth/2fa/recovery-codes', { body: { code: recoveryCodes[3]! } }));
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(renewed.recoveryCodes.some((code) => recoveryCodes.includes(code))).toBe(false);
    const old = await login({ email: alice.email, password: alice.password, code: recoveryCodes[4] }, '198.51.100.6');
    expect(old.response.status).toBe(401);
    recoveryCodes = renewed.recoveryCodes;
  });

  it('turns off only with a right code, and then signs in with the password alone', async () => {
    const wrong = await alice.console.POST('/api/auth/2fa/disable', { body: { code: 'aaaaa-aaaaa' } });
    expect(wrong.response.status).toBe(401);
    expect(await sessionStatus(alice.cookie)).toBe(200);

    const disabled = await unwrap(alice.console.POST('/api/auth/2fa/disable', { body: { code: recoveryCodes[0]! } }));
    expect(disabled.user.twoFactorEnabled).toBe(false);
    const [row] = await sql<{ totp_secret: string | null; enabled: boolean; codes: number }>(
      app,
      `SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled,
              (SELECT count(*)::int FROM recovery_codes WHERE user_id = $1) AS codes
       FROM users WHERE id = $1`,
      [alice.userId],
    );
    expect(row).toEqual({ totp_secret: null, enabled: false, codes: 0 });
    expect((await login({ email: alice.email, password: alice.password }, '198.51.100.7')).response.status).toBe(200);
    expect((await alice.console.POST('/api/auth/2fa/disable', { body: { code: recoveryCodes[1]! } })).response.status).toBe(409);
  });

  it('of two parallel enables with the same code, one wins and the other answers 409', async () => {
    const bob = await createUser(app.baseUrl);
    const setup = await unwrap(bob.console.POST('/api/auth/2fa/setup'));
    const code = await totp(setup.secret);
    const race = await Promise.all([0, 1].map(() => bob.console.POST('/api/auth/2fa/enable', { body: { code } })));
    expect(race.map((r) => r.response.status).sort()).toEqual([200, 409]);
    const [count] = await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1', [
      bob.userId,
    ]);
    expect(count!.n).toBe(10);
  });
});

describe("the viewer's sign-in form with two-factor authentication", () => {
  let app: RunningApp;
  let carol: TestUser;
  let secret: string;

  beforeAll(async () => {
    app = await startApp();
    carol = await createUser(app.baseUrl);
    secret = (await unwrap(carol.console.POST('/api/auth/2fa/setup'))).secret;
    await unwrap(carol.console.POST('/api/auth/2fa/enable', { body: { code: await totp(secret) } }));
  });
  afterAll(async () => app?.cleanup());

  const post = (form: Record<string, string>) =>
    fetch(`${app.baseUrl}/s/_login`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form) });

  const ticketOf = (page: string) => /name="ticket" value="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&') ?? '';

  it('asks for the code after the right password, carrying a ticket and never the password', async () => {
    const first = await post({ email: carol.email, password: carol.password, next: '/s/someone/report' });
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    const page = await first.text();
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).not.toContain(carol.password);
    const ticket = ticketOf(page);
    expect(ticket).not.toBe('');
    expect(Buffer.from(ticket.split('.')[0]!, 'base64url').toString('utf8')).not.toContain(carol.password);

    const wrong = await post({ ticket, code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toContain('验证码错误');

    const forged = await post({ ticket: `${ticket.slice(0, -2)}xx`, code: await totp(secret, 30) });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('set-cookie')).toBeNull();

    const right = await post({ ticket, code: await totp(secret, 30) });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/s/someone/report');
    const cookie = sessionCookieOf(right);
    expect((await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } })).status).toBe(200);
  });

  it('never signs in with the password alone', async () => {
    const first = await post({ email: carol.email, password: carol.password });
    expect(first.headers.get('set-cookie')).toBeNull();
    const empty = await post({ ticket: ticketOf(await first.text()), code: '' });
    expect(empty.status).toBe(400);
    expect(empty.headers.get('set-cookie')).toBeNull();
  });
});
