import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import { freePort, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload } from '../support/browser.js';
import { startOidcProvider, type ProviderAccount, type TestOidcProvider } from '../support/oidc-provider.js';

const CLIENT_SECRET = 'test-client-secret-for-sharedown';
/** Named in ADMIN_EMAILS: administrators once an address of theirs is proven. */
const CHIEF = 'chief@corp.test';
const DEPUTY = 'deputy@corp.test';
let counter = 0;

function person(verified: boolean, email?: string): ProviderAccount {
  const n = `${Date.now()}x${++counter}`;
  return { sub: `sub-${n}`, email: email ?? `person${n}@corp.test`, email_verified: verified };
}

/**
 * Single sign-on over plain HTTP against a real provider: an instance with password sign-in and
 * registration switched off and a render host of its own. The browser suite (browser/oidc.e2e.ts)
 * covers the console; this one the races, the provider being away, and the bounce to the render host.
 */
describe('single sign-on without a browser', () => {
  let app: RunningApp;
  let plain: RunningApp;
  let provider: TestOidcProvider;
  let providerPort: number;
  let renderBase: string;

  beforeAll(async () => {
    const [port, issuerPort] = await Promise.all([freePort(), freePort()]);
    providerPort = issuerPort;
    renderBase = `http://render.sharedown.test:${port}`;
    [app, plain] = await Promise.all([
      startApp({
        env: {
          PORT: String(port),
          RENDER_URL: renderBase,
          PASSWORD_LOGIN: 'false',
          ALLOW_REGISTRATION: 'false',
          OIDC_ISSUER_URL: `http://127.0.0.1:${issuerPort}`,
          OIDC_CLIENT_ID: 'sharedown-test',
          OIDC_CLIENT_SECRET: CLIENT_SECRET,
          ADMIN_EMAILS: `${CHIEF},${DEPUTY}`,
        },
      }),
      startApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([app?.cleanup(), plain?.cleanup(), provider?.close()]);
  });

  /** Follows the redirects from `url` through the provider up to the app's callback; that URL. */
  async function toCallback(visitor: HttpVisitor, url: string): Promise<string> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      const visit = await visitor.get(current);
      if (!visit.location) throw new Error(`no redirect from ${current}: ${visit.status} ${visit.body.slice(0, 300)}`);
      const next = new URL(visit.location, current).href;
      if (next.startsWith(`${app.baseUrl}/api/auth/oidc/callback`)) return next;
      current = next;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /**
   * Runs `race` while `table` is locked against writes, until `waiters` of its requests wait for
   * that lock: each has looked and found nothing, and now they all write at the same moment.
   */
  async function atOnce<T>(table: 'users' | 'user_identities', waiters: number, race: () => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: await app.databaseUrl() });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
      const result = race();
      // A statement takes its table locks before pg_stat_activity shows its text: count the lock queue instead.
      const queued = async () =>
        (await client.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, [table]))
          .rows[0].n;
      await expect.poll(queued, { timeout: 20_000 }).toBe(waiters);
      await client.query('COMMIT');
      return await result;
    } finally {
      await client.end();
    }
  }

  async function signIn(account: ProviderAccount, next = '/files'): Promise<{ visitor: HttpVisitor; landed: string | null }> {
    const visitor = new HttpVisitor(app.baseUrl);
    provider.signInAs(account);
    const callback = await toCallback(visitor, `${app.baseUrl}/api/auth/oidc/start?next=${encodeURIComponent(next)}`);
    const landed = await visitor.get(callback);
    return { visitor, landed: landed.location };
  }

  it('starts while the provider is away, says so at sign-in, and discovers it once it is back', async () => {
    expect((await fetch(`${app.baseUrl}/healthz`)).ok).toBe(true);
    const away = await new HttpVisitor(app.baseUrl).get('/api/auth/oidc/start?next=%2Fshares');
    expect(away.status).toBe(302);
    expect(away.location).toBe('/login?error=sso&redirect=%2Fshares');
    expect(away.headers.getSetCookie().some((line) => line.startsWith('sd_oidc='))).toBe(false);
    expect(app.logs()).toContain('OIDC_ISSUER_URL is plain http');

    provider = await startOidcProvider([`${app.baseUrl}/api/auth/oidc/callback`], {
      port: providerPort,
      clientSecret: CLIENT_SECRET,
    });
    const back = await new HttpVisitor(app.baseUrl).get('/api/auth/oidc/start?next=%2Fshares');
    expect(back.status).toBe(302);
    const authorize = new URL(back.location!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${app.baseUrl}/api/auth/oidc/callback`);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const cookie = back.headers.getSetCookie().find((line) => line.startsWith('sd_oidc='))!;
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=600/);
  });

  it('creates one account for parallel callbacks of one new person, even with registration closed', async () => {
    const account = person(true);
    provider.signInAs(account);
    const visitors = Array.from({ length: 8 }, () => new HttpVisitor(app.baseUrl));
    const callbacks = await Promise.all(visitors.map((visitor) => toCallback(visitor, `${app.baseUrl}/api/auth/oidc/start`)));
    const landed = await atOnce('users', 8, () => Promise.all(visitors.map((visitor, i) => visitor.get(callbacks[i]!))));
    expect(landed.map((visit) => `${visit.status} ${visit.location}`)).toEqual(Array(8).fill('302 /files'));
    const users = await sql<{ id: string; verified: boolean; password: boolean }>(
      app,
      `SELECT id, email_verified_at IS NOT NULL AS verified, password_hash IS NOT NULL AS password FROM users WHERE lower(email) = lower($1)`,
      [account.email],
    );
    expect(users).toEqual([{ id: users[0]!.id, verified: true, password: false }]);
    const identities = await sql(app, `SELECT user_id FROM user_identities WHERE subject = $1`, [account.sub]);
    expect(identities).toEqual([{ user_id: users[0]!.id }]);
    const sessions = await sql<{ method: string }>(app, `SELECT method FROM sessions WHERE user_id = $1`, [users[0]!.id]);
    expect(sessions.map((row) => row.method)).toEqual(Array(8).fill('oidc'));
  });

  it('links parallel callbacks of one new identity to the account its verified address names, once', async () => {
    const first = person(true);
    await signIn(first);
    const [owner] = await sql<{ id: string }>(app, `SELECT id FROM users WHERE lower(email) = lower($1)`, [first.email]);
    const second = { ...person(true), email: first.email };
    provider.signInAs(second);
    const visitors = Array.from({ length: 8 }, () => new HttpVisitor(app.baseUrl));
    const callbacks = await Promise.all(visitors.map((visitor) => toCallback(visitor, `${app.baseUrl}/api/auth/oidc/start`)));
    const landed = await atOnce('user_identities', 8, () =>
      Promise.all(visitors.map((visitor, i) => visitor.get(callbacks[i]!))),
    );
    expect(landed.map((visit) => `${visit.status} ${visit.location}`)).toEqual(Array(8).fill('302 /files'));
    expect(await sql(app, `SELECT user_id FROM user_identities WHERE subject = $1`, [second.sub])).toEqual([
      { user_id: owner!.id },
    ]);
    expect(await sql(app, `SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [first.email])).toEqual([
      { n: 1 },
    ]);
  });

  it('creates an account for an unverified address nobody has, and keeps it unverified', async () => {
    const account = person(false);
    const { landed } = await signIn(account);
    expect(landed).toBe('/files');
    const rows = await sql(app, `SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE lower(email) = lower($1)`, [
      account.email,
    ]);
    expect(rows).toEqual([{ verified: false }]);
  });

  it('makes an ADMIN_EMAILS address an administrator only once the provider vouches for it', async () => {
    const isAdmin = async (visitor: HttpVisitor) => {
      const session = await visitor.get('/api/auth/session');
      expect(session.status).toBe(200);
      return (JSON.parse(session.body) as { user: { isAdmin: boolean } }).user.isAdmin;
    };
    const chief = person(false, CHIEF);
    const unproven = await signIn(chief);
    expect(unproven.landed).toBe('/files');
    expect(await isAdmin(unproven.visitor)).toBe(false);
    expect((await unproven.visitor.get('/api/admin/users')).status).toBe(403);

    // The same person, once the provider says the address is verified: the address is proven, and
    // every session of the account reads it so.
    const vouched = await signIn({ ...chief, email_verified: true });
    expect(vouched.landed).toBe('/files');
    expect(await isAdmin(vouched.visitor)).toBe(true);
    expect(await isAdmin(unproven.visitor)).toBe(true);
    expect((await vouched.visitor.get('/api/admin/users')).status).toBe(200);

    const deputy = await signIn(person(true, DEPUTY));
    expect(await isAdmin(deputy.visitor)).toBe(true);
  });

  it('answers a provider error with the sign-in page and no session', async () => {
    provider.denyNext();
    const visitor = new HttpVisitor(app.baseUrl);
    const callback = await toCallback(visitor, `${app.baseUrl}/api/auth/oidc/start?next=%2Ftokens`);
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
    const landed = await visitor.get(callback);
    expect(landed.location).toBe('/login?error=sso&redirect=%2Ftokens');
    expect(visitor.cookies.has('sharedown_session')).toBe(false);
    expect(visitor.cookies.has('sd_oidc')).toBe(false);
  });

  it('signs in a visitor of a login-required link on the render host through the bounce', async () => {
    const owner = await signIn(person(true));
    const cookie = `sharedown_session=${owner.visitor.cookies.get('sharedown_session')}`;
    const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
    const created = await unwrap(consoleClient.POST('/api/tokens', { body: { name: 'e2e' } }));
    const ownerUser = {
      token: created.plaintext,
      api: createSharedownClient({ baseUrl: app.baseUrl, token: created.plaintext }),
    } as TestUser;
    const doc = await upload(app, ownerUser, 'sso-remote.md', '# Behind single sign-on\n');
    const path = new URL((await share(ownerUser, doc.fileId, { requireLogin: true })).url).pathname;

    // The render host shows the way to sign in on PUBLIC_URL; there, only single sign-on is offered.
    const render = new HttpVisitor(renderBase, undefined, app.baseUrl);
    const gate = await render.get(path);
    expect(gate.status).toBe(401);
    const bounce = /href="([^"]+\/s\/_bounce\?next=[^"]+)"/.exec(gate.body)![1]!.replace(/&amp;/g, '&');
    const visitor = new HttpVisitor(app.baseUrl);
    const toLogin = await visitor.get(bounce);
    const loginPage = await visitor.get(toLogin.location!);
    expect(loginPage.body).not.toContain('name="password"');
    const start = /href="(\/api\/auth\/oidc\/start\?next=[^"]+)"/.exec(loginPage.body)![1]!.replace(/&amp;/g, '&');
    expect(decodeURIComponent(start.split('next=')[1]!)).toBe(`/s/_bounce?next=${encodeURIComponent(path)}`);

    provider.signInAs(person(true));
    const landed = await visitor.get(await toCallback(visitor, `${app.baseUrl}${start}`));
    expect(landed.location).toBe(`/s/_bounce?next=${encodeURIComponent(path)}`);
    const ticket = await visitor.get(landed.location!);
    expect(ticket.location!.startsWith(`${renderBase}/s/_bounce/return?ticket=`)).toBe(true);
    const returned = await render.get(ticket.location!);
    expect(returned.location).toBe(path);
    expect(isDocument(await render.get(path))).toBe(true);
  });

  it('refuses every use of a password when PASSWORD_LOGIN=false', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    const login = await anonymous.POST('/api/auth/login', {
      body: { email: 'someone@corp.test', password: 'correct horse battery' },
    });
    expect(login.response.status).toBe(403);
    expect(login.error).toEqual({ error: '本服务未开放密码登录', code: 'FORBIDDEN' });
    const register = await anonymous.POST('/api/auth/register', {
      body: { email: 'new@corp.test', password: 'correct horse battery' },
    });
    expect(register.response.status).toBe(403);
    expect(register.error).toMatchObject({ code: 'FORBIDDEN' });
    const viewer = new HttpVisitor(app.baseUrl);
    const form = await viewer.post('/s/_login', { email: 'someone@corp.test', password: 'correct horse battery', next: '/s/' });
    expect(form.status).toBe(403);
    expect(viewer.cookies.has('sharedown_session')).toBe(false);
    expect(await unwrap(anonymous.GET('/api/auth/options'))).toMatchObject({ passwordLogin: false, registration: false });
  });

  it('has no single sign-on where it is not configured', async () => {
    for (const path of ['/api/auth/oidc/start?next=%2Ffiles', '/api/auth/oidc/callback?code=x&state=y']) {
      const response = await fetch(`${plain.baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    const page = await new HttpVisitor(plain.baseUrl).get('/s/_login?next=%2Fs%2Fx');
    expect(page.body).toContain('name="password"');
    expect(page.body).not.toContain('/api/auth/oidc/start');
  });
});
