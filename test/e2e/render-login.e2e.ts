import { unwrap } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, waitForScan } from '../support/browser.js';

const RENDER_BASE = 'http://render.sharedown.test:8443';

/**
 * The sign-in a console session carries over to a render host on another domain lives and dies
 * with that session: sign-out, "sign out everywhere else", a password change and an
 * administrator's disabling end it at the next request; tickets are single-use, and neither a
 * ticket nor the cookie is accepted as the other.
 */
describe('the render host sign-in follows the console session', () => {
  let app: RunningApp;
  let admin: TestUser;
  let path: string;

  beforeAll(async () => {
    // One process plays both origins: the console at 127.0.0.1, the render host by its Host header.
    app = await startApp({ env: { RENDER_URL: RENDER_BASE } });
    // The instance's first account is its administrator.
    admin = await createUser(app.baseUrl);
    const doc = await upload(app, admin, 'members.md', '# Members only\n');
    path = new URL((await share(admin, doc.fileId, { requireLogin: true })).url).pathname;
  });
  afterAll(async () => app?.cleanup());

  async function signIn(user: TestUser): Promise<string> {
    const response = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    return sessionCookieOf(response);
  }

  /** A ticket issued on the console origin for `cookie`'s session. */
  async function ticketFor(cookie: string): Promise<string> {
    const issued = await new HttpVisitor(app.baseUrl).withCookie(cookie).get(`/s/_bounce?next=${encodeURIComponent(path)}`);
    expect(issued.status).toBe(303);
    expect(issued.location!.startsWith(`${RENDER_BASE}/s/_bounce/return?ticket=`)).toBe(true);
    return issued.location!;
  }

  /** A browser on the render host signed in through the bounce of `cookie`'s session. */
  async function renderBrowser(cookie: string): Promise<HttpVisitor> {
    const browser = new HttpVisitor(RENDER_BASE, undefined, app.baseUrl);
    const returned = await browser.get(await ticketFor(cookie));
    expect(returned.status).toBe(303);
    expect(browser.cookies.has('sd_login')).toBe(true);
    expect(isDocument(await browser.get(path))).toBe(true);
    return browser;
  }

  const signedOut = async (browser: HttpVisitor) => (await browser.get(path)).status === 401;

  it('ends with sign-out of the console session', async () => {
    const user = await createUser(app.baseUrl);
    const browser = await renderBrowser(user.cookie);
    const out = await fetch(`${app.baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie: user.cookie } });
    expect(out.status).toBeLessThan(300);
    expect(await signedOut(browser)).toBe(true);
  });

  it('ends when another session signs out everywhere else', async () => {
    const user = await createUser(app.baseUrl);
    const browser = await renderBrowser(user.cookie);
    const other = await signIn(user);
    const ended = await fetch(`${app.baseUrl}/api/auth/sessions`, { method: 'DELETE', headers: { cookie: other } });
    expect(ended.status).toBe(200);
    expect(await signedOut(browser)).toBe(true);
  });

  it('ends with a password change, even one made in the session it came from', async () => {
    const user = await createUser(app.baseUrl);
    const browser = await renderBrowser(user.cookie);
    const changed = await fetch(`${app.baseUrl}/api/auth/password`, {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ currentPassword: user.password, newPassword: 'a brand new passphrase' }),
    });
    expect(changed.status).toBe(200);
    expect(await signedOut(browser)).toBe(true);
  });

  it('ends when an administrator disables the account, and a ticket issued before mints nothing', async () => {
    const user = await createUser(app.baseUrl);
    const browser = await renderBrowser(user.cookie);
    const pending = await ticketFor(await signIn(user));
    await unwrap(
      admin.console.PATCH('/api/admin/users/{id}', { params: { path: { id: user.userId } }, body: { disabled: true } }),
    );
    expect(await signedOut(browser)).toBe(true);
    const late = new HttpVisitor(RENDER_BASE, undefined, app.baseUrl);
    expect((await late.get(pending)).status).toBe(400);
    expect(late.cookies.has('sd_login')).toBe(false);
  });

  it('uses a ticket once, and takes neither a ticket as the cookie nor the cookie as a ticket', async () => {
    const user = await createUser(app.baseUrl);
    const ticketUrl = await ticketFor(user.cookie);
    const first = new HttpVisitor(RENDER_BASE, undefined, app.baseUrl);
    expect((await first.get(ticketUrl)).status).toBe(303);
    const again = new HttpVisitor(RENDER_BASE, undefined, app.baseUrl);
    expect((await again.get(ticketUrl)).status).toBe(400);
    expect(again.cookies.has('sd_login')).toBe(false);

    // Racing copies of one ticket: exactly one signs in.
    const raced = await ticketFor(user.cookie);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => new HttpVisitor(RENDER_BASE, undefined, app.baseUrl).get(raced)),
    );
    expect(results.filter((result) => result.status === 303)).toHaveLength(1);
    expect(results.filter((result) => result.status === 400)).toHaveLength(11);

    // The cookie's own value is no ticket: it cannot renew itself.
    const cookie = first.cookies.get('sd_login')!;
    const renewed = new HttpVisitor(RENDER_BASE, undefined, app.baseUrl);
    expect((await renewed.get(`/s/_bounce/return?ticket=${encodeURIComponent(cookie)}`)).status).toBe(400);
    expect(renewed.cookies.has('sd_login')).toBe(false);

    // A ticket is no cookie, and the render cookie is no console session.
    const ticket = new URL(ticketUrl).searchParams.get('ticket')!;
    expect(await signedOut(new HttpVisitor(RENDER_BASE, undefined, app.baseUrl).withCookie(`sd_login=${ticket}`))).toBe(true);
    const asConsole = await fetch(`${app.baseUrl}/api/auth/session`, { headers: { cookie: `sharedown_session=${cookie}` } });
    expect(asConsole.status).toBe(401);
    // The carried sign-in is not a session of its own in the account's list.
    const sessions = await unwrap(user.console.GET('/api/auth/sessions'));
    expect((sessions as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  describe('inside a collection pass on the render host', () => {
    let folderPath: string;
    let markdownId: string;
    let htmlId: string;

    /** Uploads a document into a folder and waits for its scan. */
    async function put(folderId: string, name: string, content: string): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([content], { type: 'text/plain' }), name);
      form.append('folderId', folderId);
      const answer = await fetch(`${app.baseUrl}/api/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}` },
        body: form,
      });
      const { file } = (await answer.json()) as { file: { id: string } };
      await waitForScan(admin, file.id, 'CLEAN');
      return file.id;
    }

    beforeAll(async () => {
      const folderId = (await unwrap(admin.api.POST('/api/v1/folders', { body: { name: 'Board pack' } }))).folder.id;
      markdownId = await put(folderId, 'minutes.md', '# Minutes\n\nConfidential minutes.\n');
      htmlId = await put(folderId, 'deck.html', '<!doctype html><h1>Deck</h1><p>Confidential deck.</p>');
      const created = await unwrap(
        admin.api.POST('/api/v1/shares', {
          body: { folderId, requireLogin: true, watermarkEnabled: true, watermarkText: '{email} · {date}' },
        }),
      );
      folderPath = new URL(created.url).pathname;
    });

    /** A reader with a proven address, signed in on the render host, holding the collection's pass. */
    async function reader(): Promise<{ user: TestUser; browser: HttpVisitor }> {
      const user = await createUser(app.baseUrl);
      await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [user.userId]);
      const browser = await renderBrowser(user.cookie);
      // Only the render host's own cookie: the console's never reaches another host.
      expect([...browser.cookies.keys()]).not.toContain('sharedown_session');
      expect((await browser.get(folderPath)).status).toBe(200);
      return { user, browser };
    }

    it("watermarks a document opened from the list, and its HTML frame, with the reader's address", async () => {
      const { user, browser } = await reader();
      const today = new Date().toISOString().slice(0, 10);
      const page = await browser.get(`${folderPath}/d/${markdownId}`);
      expect(isDocument(page)).toBe(true);
      const mark = /<div class="sd-wm"[^>]*><span>([^<]*)<\/span>/.exec(page.body)?.[1];
      expect(mark).toBe(`${user.email} · ${today}`);

      const html = await browser.get(`${folderPath}/d/${htmlId}`);
      expect(isDocument(html)).toBe(true);
      const src = /<iframe class="sd-frame" src="([^"]+)"/.exec(html.body)![1]!.replace(/&amp;/g, '&');
      const frame = await browser.get(src);
      expect(frame.status).toBe(200);
      expect(frame.body).toContain('Confidential deck.');
      expect(frame.body).toContain(user.email);
    });

    it('asks for the sign-in again once the reader signs out of the console, though the pass is still held', async () => {
      const { user, browser } = await reader();
      expect(isDocument(await browser.get(`${folderPath}/d/${markdownId}`))).toBe(true);
      const out = await fetch(`${app.baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie: user.cookie } });
      expect(out.status).toBeLessThan(300);
      expect([...browser.cookies.keys()].some((name) => name.startsWith('sd_visit_'))).toBe(true);
      const asked = await browser.get(`${folderPath}/d/${markdownId}`);
      expect(asked.status).toBe(401);
      expect(asked.body).not.toContain('Confidential minutes.');
      expect((await browser.get(folderPath)).status).toBe(401);
    });

    it('asks again once an administrator disables the account', async () => {
      const { user, browser } = await reader();
      await unwrap(
        admin.console.PATCH('/api/admin/users/{id}', { params: { path: { id: user.userId } }, body: { disabled: true } }),
      );
      const asked = await browser.get(`${folderPath}/d/${htmlId}`);
      expect(asked.status).toBe(401);
      expect(asked.body).not.toContain('sd-frame');
    });
  });
});
