import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSharedownClient } from '@sharedown/contract';
import { createUser, freePort, startApp, type RunningApp } from '../support/app.js';
import { launchChromium, share, sql, upload } from '../support/browser.js';
import { ConsoleApp } from '../support/console-pages.js';
import { startOidcProvider, type ProviderAccount, type TestOidcProvider } from '../support/oidc-provider.js';

let counter = 0;
function person(verified: boolean, email?: string): ProviderAccount {
  const n = `${Date.now()}x${++counter}`;
  return { sub: `browser-${n}`, email: email ?? `sso${n}@corp.test`, email_verified: verified };
}

/**
 * Single sign-on in Chromium against a real OpenID provider: the console's button, account
 * matching, a share link behind sign-in, and the attacks on the callback (a changed state, a code
 * used twice). A second instance runs with PASSWORD_LOGIN=false.
 */
describe('single sign-on in a real browser', () => {
  let app: RunningApp;
  let passwordless: RunningApp;
  let provider: TestOidcProvider;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const [port, otherPort] = await Promise.all([freePort(), freePort()]);
    const callbacks = [port, otherPort].map((p) => `http://127.0.0.1:${p}/api/auth/oidc/callback`);
    [provider, browser] = await Promise.all([startOidcProvider(callbacks), launchChromium()]);
    [app, passwordless] = await Promise.all([
      startApp({ env: { PORT: String(port), ...provider.env, OIDC_BUTTON_LABEL: 'Corp SSO' } }),
      startApp({ env: { PORT: String(otherPort), ...provider.env, PASSWORD_LOGIN: 'false' } }),
    ]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await new ConsoleApp(page, app.baseUrl).shot(`oidc-failed-${test.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    await context?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.cleanup(), passwordless?.cleanup(), provider?.close()]);
  });

  /** A new browser profile: no console session, no session at the provider. */
  async function freshBrowser(): Promise<Page> {
    context = await browser.newContext({ locale: 'en-US' });
    page = await context.newPage();
    return page;
  }

  async function ssoFromConsole(account: ProviderAccount, base = app.baseUrl): Promise<void> {
    provider.signInAs(account);
    await page.goto(`${base}/login`);
    await page.click('[data-test="sso-button"]');
  }

  async function sessionCookie(base = app.baseUrl): Promise<string | undefined> {
    return (await context.cookies(base)).find((cookie) => cookie.name === 'sharedown_session')?.value;
  }

  async function signedInAs(): Promise<{ id: string; email: string; emailVerified: boolean }> {
    return page.evaluate(
      async () =>
        ((await (await fetch('/api/auth/session')).json()) as { user: { id: string; email: string; emailVerified: boolean } })
          .user,
    );
  }

  /**
   * Holds the provider's redirect back to the app: its URL, and the attempt's cookie at that
   * moment. Through the DevTools protocol, since a redirect's target escapes page.route.
   */
  async function heldCallback(account: ProviderAccount): Promise<{ url: string; attemptCookie: string }> {
    const devtools = await context.newCDPSession(page);
    let held: string | null = null;
    devtools.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string } }) => {
      held = event.request.url;
      void devtools.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/plain' }],
        body: Buffer.from('held by the test').toString('base64'),
      });
    });
    await devtools.send('Fetch.enable', { patterns: [{ urlPattern: `${app.baseUrl}/api/auth/oidc/callback*` }] });
    await ssoFromConsole(account);
    await expect.poll(() => held, { timeout: 10_000 }).not.toBeNull();
    await devtools.send('Fetch.disable');
    await devtools.detach();
    const attempt = (await context.cookies(`${app.baseUrl}/api/auth/oidc/callback`)).find((cookie) => cookie.name === 'sd_oidc');
    return { url: held!, attemptCookie: `sd_oidc=${attempt!.value}` };
  }

  it('creates an account without a password at the first sign-in, and shows the redirect URI', async () => {
    await freshBrowser();
    const alice = person(true);
    await ssoFromConsole(alice);
    await page.waitForURL('**/files');
    expect(await signedInAs()).toMatchObject({ email: alice.email, emailVerified: true });
    const [row] = await sql<{ id: string; password: boolean; verified: boolean }>(
      app,
      `SELECT id, password_hash IS NOT NULL AS password, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1`,
      [alice.email],
    );
    expect(row).toMatchObject({ password: false, verified: true });
    expect(
      await sql(app, `SELECT user_id, email FROM user_identities WHERE issuer = $1 AND subject = $2`, [
        provider.issuer,
        alice.sub,
      ]),
    ).toEqual([{ user_id: row!.id, email: alice.email }]);
    expect(await sql(app, `SELECT method FROM sessions WHERE user_id = $1`, [row!.id])).toEqual([{ method: 'oidc' }]);

    await page.goto(`${app.baseUrl}/account`);
    expect(await page.locator('[data-test="email-verified"]').innerText()).toBe('Verified');
    expect(await page.locator('[data-test="sso-redirect-uri"]').innerText()).toBe(`${app.baseUrl}/api/auth/oidc/callback`);

    // The same person again, from another browser: the same account, a second session.
    await context.close();
    await freshBrowser();
    await ssoFromConsole(alice);
    await page.waitForURL('**/files');
    expect((await signedInAs()).id).toBe(row!.id);
    expect(await sql(app, `SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [alice.email])).toEqual([
      { n: 1 },
    ]);
    expect(await sql(app, `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [row!.id])).toEqual([{ n: 2 }]);
  });

  it('links a verified address to the existing proven password account, which keeps its password', async () => {
    const bob = await createUser(app.baseUrl);
    await sql(app, `UPDATE users SET email_verified_at = now() WHERE id = $1`, [bob.userId]);
    await freshBrowser();
    await ssoFromConsole(person(true, bob.email.toUpperCase()));
    await page.waitForURL('**/files');
    expect(await signedInAs()).toMatchObject({ id: bob.userId, email: bob.email, emailVerified: true });
    expect(await sql(app, `SELECT count(*)::int AS n FROM user_identities WHERE user_id = $1`, [bob.userId])).toEqual([{ n: 1 }]);
    const password = await createSharedownClient({ baseUrl: app.baseUrl }).POST('/api/auth/login', {
      body: { email: bob.email, password: bob.password },
    });
    expect(password.response.status).toBe(200);
  });

  it('takes over an account whose address was never proven: its password, sessions and tokens end', async () => {
    const squatter = await createUser(app.baseUrl);
    const token = (await squatter.console.POST('/api/tokens', { body: { name: 'squatter' } })).data!.plaintext;
    expect((await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await freshBrowser();
    await ssoFromConsole(person(true, squatter.email));
    await page.waitForURL('**/files');
    expect(await signedInAs()).toMatchObject({ id: squatter.userId, emailVerified: true });
    const login = await createSharedownClient({ baseUrl: app.baseUrl }).POST('/api/auth/login', {
      body: { email: squatter.email, password: squatter.password },
    });
    expect(login.response.status).toBe(401);
    expect((await squatter.console.GET('/api/auth/session')).response.status).toBe(401);
    expect((await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(await sql(app, `SELECT method FROM sessions WHERE user_id = $1`, [squatter.userId])).toEqual([{ method: 'oidc' }]);
  });

  it('refuses an unverified address that belongs to an existing account, and creates nothing', async () => {
    const carol = await createUser(app.baseUrl);
    const before = await sql(app, `SELECT count(*)::int AS n FROM users`);
    const mallory = person(false, carol.email);
    await freshBrowser();
    await ssoFromConsole(mallory);
    await page.waitForURL('**/login?error=sso-unverified**');
    expect(await page.locator('[data-test="sso-error"]').innerText()).toContain('does not vouch for the address');
    expect(await sessionCookie()).toBeUndefined();
    expect(await sql(app, `SELECT count(*)::int AS n FROM users`)).toEqual(before);
    expect(await sql(app, `SELECT count(*)::int AS n FROM user_identities WHERE subject = $1`, [mallory.sub])).toEqual([
      { n: 0 },
    ]);
    expect(await sql(app, `SELECT email_verified_at FROM users WHERE id = $1`, [carol.userId])).toEqual([
      { email_verified_at: null },
    ]);
  });

  it('opens a login-required share link through single sign-on', async () => {
    const owner = await createUser(app.baseUrl);
    const doc = await upload(app, owner, 'sso-only.md', '# Members only\n\nSigned in through the provider.\n');
    const link = (await share(owner, doc.fileId, { requireLogin: true })).url;
    await freshBrowser();
    provider.signInAs(person(true));
    await page.goto(link);
    // The browser asks for English, and the viewer answers in it.
    expect(await page.locator('h1').innerText()).toBe('Sign-in required');
    await page.click('a[data-sso]');
    await page.waitForURL(link);
    expect(await page.locator('.sd-doc').innerText()).toContain('Signed in through the provider.');
  });

  it('refuses a callback whose state was changed, and clears the attempt', async () => {
    await freshBrowser();
    const held = await heldCallback(person(true));
    const tampered = new URL(held.url);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    await page.goto(tampered.href);
    await page.waitForURL('**/login?error=sso**');
    expect(await page.locator('[data-test="sso-error"]').innerText()).toContain('Single sign-on did not complete');
    expect(await sessionCookie()).toBeUndefined();
    expect((await context.cookies(`${app.baseUrl}/api/auth/oidc/callback`)).some((cookie) => cookie.name === 'sd_oidc')).toBe(
      false,
    );
  });

  it('refuses a code used a second time, with no second session', async () => {
    await freshBrowser();
    const dave = person(true);
    const held = await heldCallback(dave);
    await page.goto(held.url);
    await page.waitForURL('**/files');
    const userId = (await signedInAs()).id;
    const sessions = () => sql(app, `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [userId]);
    expect(await sessions()).toEqual([{ n: 1 }]);

    // The same URL again in the browser: the attempt was spent with the first use.
    await page.goto(held.url);
    await page.waitForURL('**/login?error=sso**');
    // And with the attempt's cookie kept from before: the provider refuses the used code.
    const redeemed = provider.redeemed();
    const replay = await fetch(held.url, { headers: { cookie: held.attemptCookie }, redirect: 'manual' });
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toMatch(/^\/login\?error=sso&/);
    expect(replay.headers.getSetCookie().some((line) => line.startsWith('sharedown_session='))).toBe(false);
    expect(provider.redeemed()).toBe(redeemed);
    expect(await sessions()).toEqual([{ n: 1 }]);
  });

  it('with PASSWORD_LOGIN=false refuses password sign-in and shows only single sign-on', async () => {
    const login = await createSharedownClient({ baseUrl: passwordless.baseUrl }).POST('/api/auth/login', {
      body: { email: 'someone@corp.test', password: 'correct horse battery' },
    });
    expect(login.response.status).toBe(403);
    expect(login.error).toMatchObject({ code: 'FORBIDDEN' });
    await freshBrowser();
    await page.goto(`${passwordless.baseUrl}/login`);
    await page.waitForSelector('[data-test="sso-button"]');
    expect(await page.locator('#login-password').count()).toBe(0);
    expect(await page.locator('[data-test="login-form"]').count()).toBe(0);
    await ssoFromConsole(person(true), passwordless.baseUrl);
    await page.waitForURL('**/files');
  });
});
