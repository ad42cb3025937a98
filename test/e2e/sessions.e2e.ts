import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { sql } from '../support/browser.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('sessions and password changes', () => {
  let app: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  async function signIn(user: { email: string; password: string }, userAgent: string): Promise<string> {
    const response = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    return sessionCookieOf(response);
  }

  const consoleOf = (cookie: string): SharedownClient => createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
  const sessionStatus = async (cookie: string) =>
    (await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie } })).status;

  it('lists the live sessions newest first: this one flagged, the device named, the network masked', async () => {
    const firefox = await signIn(alice, FIREFOX_LINUX);
    const iphone = await signIn(alice, SAFARI_IPHONE);
    const { sessions } = await unwrap(consoleOf(iphone).GET('/api/auth/sessions'));
    expect(sessions).toHaveLength(3);
    expect(sessions.map((s) => s.device)).toEqual(['Safari on iPhone', 'Firefox on Linux', expect.any(String)]);
    expect(sessions.map((s) => s.current)).toEqual([true, false, false]);
    for (const session of sessions) {
      expect(session).toMatchObject({ method: 'password', ipPrefix: '127.0.0.0/24' });
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(sessions[0]!.userAgent).toBe(SAFARI_IPHONE);
    expect(Date.parse(sessions[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(sessions[1]!.createdAt));
    // Seen from another of the sessions, the flag moves with it.
    const seenFromFirefox = await unwrap(consoleOf(firefox).GET('/api/auth/sessions'));
    expect(seenFromFirefox.sessions.find((s) => s.current)!.device).toBe('Firefox on Linux');
    // Nothing else of the address is kept.
    const [stored] = await sql<{ n: number }>(app, `SELECT count(*)::int AS n FROM sessions WHERE ip_prefix LIKE '127.0.0.1%'`);
    expect(stored!.n).toBe(0);
  });

  it('writes last seen at most once a minute', async () => {
    const cookie = await signIn(alice, FIREFOX_LINUX);
    const { sessions } = await unwrap(consoleOf(cookie).GET('/api/auth/sessions'));
    const id = sessions.find((s) => s.current)!.id;
    const lastSeen = async () =>
      (
        await sql<{ seconds: number }>(
          app,
          `SELECT extract(epoch FROM now() - last_seen_at)::float AS seconds FROM sessions WHERE id = $1`,
          [id],
        )
      )[0]!.seconds;

    await sql(app, `UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE id = $1`, [id]);
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await lastSeen()).toBeLessThan(5);

    await sql(app, `UPDATE sessions SET last_seen_at = now() - interval '30 seconds' WHERE id = $1`, [id]);
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await lastSeen()).toBeGreaterThanOrEqual(29);
  });

  it('ends one session: its cookie stops working, the others go on', async () => {
    const doomed = await signIn(alice, SAFARI_IPHONE);
    const survivor = await signIn(alice, FIREFOX_LINUX);
    const id = (await unwrap(consoleOf(doomed).GET('/api/auth/sessions'))).sessions.find((s) => s.current)!.id;
    const ended = await consoleOf(survivor).DELETE('/api/auth/sessions/{id}', { params: { path: { id } } });
    expect(ended.response.status).toBe(200);
    expect(await sessionStatus(doomed)).toBe(401);
    expect(await sessionStatus(survivor)).toBe(200);
    const again = await consoleOf(survivor).DELETE('/api/auth/sessions/{id}', { params: { path: { id } } });
    expect(again.response.status).toBe(404);
  });

  it("answers 404 for someone else's session and leaves it alone", async () => {
    const bob = await createUser(app.baseUrl);
    const bobSession = (await unwrap(bob.console.GET('/api/auth/sessions'))).sessions[0]!.id;
    const attempt = await alice.console.DELETE('/api/auth/sessions/{id}', { params: { path: { id: bobSession } } });
    expect(attempt.response.status).toBe(404);
    expect(attempt.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await sessionStatus(bob.cookie)).toBe(200);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await alice.console.DELETE('/api/auth/sessions/{id}', { params: { path: { id } } })).response.status).toBe(404);
    }
    expect((await unwrap(bob.console.GET('/api/auth/sessions'))).sessions).toHaveLength(1);
  });

  it('ends all other sessions at once and says how many', async () => {
    const others = [await signIn(alice, FIREFOX_LINUX), await signIn(alice, SAFARI_IPHONE)];
    const before = (await unwrap(alice.console.GET('/api/auth/sessions'))).sessions.length;
    const result = await unwrap(alice.console.DELETE('/api/auth/sessions'));
    expect(result).toEqual({ ended: before - 1 });
    for (const cookie of others) expect(await sessionStatus(cookie)).toBe(401);
    const after = await unwrap(alice.console.GET('/api/auth/sessions'));
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions[0]!.current).toBe(true);
  });

  it('changes the password after the current one: other sessions end, the old password stops working', async () => {
    const other = await signIn(alice, SAFARI_IPHONE);
    const missing = await alice.console.POST('/api/auth/password', { body: { newPassword: 'a brand new secret' } });
    expect(missing.response.status).toBe(400);
    const wrong = await alice.console.POST('/api/auth/password', {
      body: { currentPassword: 'not the password', newPassword: 'a brand new secret' },
    });
    expect(wrong.response.status).toBe(401);
    expect(await sessionStatus(alice.cookie)).toBe(200);
    expect(await sessionStatus(other)).toBe(200);
    const short = await alice.console.POST('/api/auth/password', {
      body: { currentPassword: alice.password, newPassword: 'short' },
    });
    expect(short.response.status).toBe(400);

    const changed = await unwrap(
      alice.console.POST('/api/auth/password', { body: { currentPassword: alice.password, newPassword: 'a brand new secret' } }),
    );
    expect(changed.user.hasPassword).toBe(true);
    expect(await sessionStatus(other)).toBe(401);
    expect(await sessionStatus(alice.cookie)).toBe(200);
    const old = await createSharedownClient({ baseUrl: app.baseUrl }).POST('/api/auth/login', {
      body: { email: alice.email, password: alice.password },
    });
    expect(old.response.status).toBe(401);
    await signIn({ email: alice.email, password: 'a brand new secret' }, FIREFOX_LINUX);
    alice.password = 'a brand new secret';
  });

  it('throttles wrong current passwords like sign-in', async () => {
    const dave = await createUser(app.baseUrl);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () =>
        dave.console.POST('/api/auth/password', { body: { currentPassword: 'wrong guess', newPassword: 'whatever it is' } }),
      ),
    );
    const statuses = attempts.map((a) => a.response.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('of two changes at once, exactly one goes through', async () => {
    const erin = await createUser(app.baseUrl);
    const race = await Promise.all(
      ['first new password', 'second new password'].map((newPassword) =>
        erin.console.POST('/api/auth/password', { body: { currentPassword: erin.password, newPassword } }),
      ),
    );
    const statuses = race.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 401)).toBe(true);
  });

  it('lets an account without a password set one, without a current password', async () => {
    const frank = await createUser(app.baseUrl);
    const other = await signIn(frank, FIREFOX_LINUX);
    // As an account made by an e-mail code or single sign-on is.
    await sql(app, 'UPDATE users SET password_hash = NULL WHERE id = $1', [frank.userId]);
    expect((await unwrap(frank.console.GET('/api/auth/session'))).user.hasPassword).toBe(false);
    const set = await unwrap(frank.console.POST('/api/auth/password', { body: { newPassword: 'first password ever' } }));
    expect(set.user.hasPassword).toBe(true);
    expect(await sessionStatus(other)).toBe(401);
    await signIn({ email: frank.email, password: 'first password ever' }, SAFARI_IPHONE);
  });
});
