import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, getShare, isDocument, share, sql, upload, type ShareInput, type Visit } from '../support/browser.js';
import { deleteExpiredFrameTickets } from '../../apps/api/src/viewer/share-view/share-view.repository.js';

const CONTENT = '<h1 id="x">Author page</h1>';
const HTML = `<!doctype html><html><head><title>t</title></head><body>${CONTENT}<p>Body text.</p></body></html>`;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const OFFICE_CHECKERS = [
  'Microsoft Office Existence Discovery',
  'Microsoft Office Protocol Discovery',
  'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E; ms-office; MSOffice 16)',
  'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Teams/1.6.00.4472 Chrome/98.0.4758.141 Electron/17.4.11 Safari/537.36',
];
// Both api processes of the replica test sign and verify with it.
const SESSION_SECRET = 'frame-tickets-e2e-session-secret-0123456789';
const NBSP = '\u00a0';
const MARK_GAP = '\u2003'.repeat(5) + ' ';

function frameSrc(page: Visit): string {
  const frame = /<iframe class="sd-frame" src="([^"]+)"/.exec(page.body);
  if (!frame) throw new Error(`no frame in the page (${page.status}): ${page.body.slice(0, 300)}`);
  return frame[1]!.replace(/&amp;/g, '&');
}

/** The page's watermark text, as the viewer page shows it. */
function pageWatermark(page: Visit): string {
  const mark = /<div class="sd-wm" aria-hidden="true"><span>([^<]+)<\/span>/.exec(page.body);
  if (!mark) throw new Error('no watermark on the page');
  return mark[1]!
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

function expectRefused(visit: Visit): void {
  expect(visit.status).toBe(410);
  expect(visit.headers.get('content-type')).toContain('text/html');
  expect(visit.body).not.toContain('Author page');
}

describe('the frame of an HTML share', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    app = await startApp({ env: { SESSION_SECRET } });
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    // The signed-in watermark names proven addresses only; this instance has no SMTP to prove them with.
    await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [bob.userId]);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  const visitor = (userAgent = CHROME) => new HttpVisitor(app.baseUrl, userAgent);

  async function htmlLink(input: ShareInput = {}, content = HTML) {
    const doc = await upload(app, alice, `page-${Date.now()}-${Math.random().toString(36).slice(2)}.html`, content);
    const created = await share(alice, doc.fileId, input);
    return { ...doc, share: created.share, path: new URL(created.url).pathname };
  }

  /** Opens the link as a browser would and returns the page with its frame URL. */
  async function opened(input: ShareInput = {}) {
    const link = await htmlLink(input);
    const browser = visitor();
    const page = await browser.get(link.path);
    expect(isDocument(page)).toBe(true);
    expect(page.body).not.toContain('Author page');
    return { ...link, browser, page, src: frameSrc(page) };
  }

  it('serves the frame once, and only to the browser that was shown the page', async () => {
    const { browser, src, share: created } = await opened();
    expect(browser.cookies.has('sd_visitor')).toBe(true);

    expectRefused(await visitor().get(src));
    // Another visitor, with a valid visitor cookie of its own.
    const other = visitor('Other/1');
    await other.get((await htmlLink()).path);
    expect(other.cookies.has('sd_visitor')).toBe(true);
    expectRefused(await other.get(src));
    expectRefused(await visitor().withCookie('sd_visitor=a-made-up-key.c2lnbmF0dXJl').get(src));
    // HEAD and OPTIONS use nothing up.
    expect((await browser.head(src)).status).toBe(200);
    const options = await fetch(`${app.baseUrl}${src}`, {
      method: 'OPTIONS',
      headers: { cookie: `sd_visitor=${browser.cookies.get('sd_visitor')}` },
    });
    expect(options.status).not.toBe(200);
    expect(await options.text()).not.toContain('Author page');

    const framed = await browser.get(src);
    expect(framed.status).toBe(200);
    expect(framed.body).toContain(CONTENT);
    expect(framed.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts allow-popups;/);
    expect(framed.headers.get('cache-control')).toBe('no-store');

    expectRefused(await browser.get(src));
    expect((await browser.head(src)).status).toBe(200);
    expectRefused(await browser.get(src));
    expect((await getShare(alice, created.id)).visitCount).toBe(1);
    expect(await sql(app, 'SELECT count(*)::int AS n FROM frame_tickets WHERE expires_at > now()')).not.toEqual([{ n: 0 }]);
  });

  it('gives the frame to one of several requests that race with the same ticket', async () => {
    const { browser, src } = await opened();
    const answers = await Promise.all(Array.from({ length: 6 }, () => browser.get(src)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    expect(answers.filter((answer) => answer.body.includes(CONTENT))).toHaveLength(1);
  });

  it('uses a ticket once across api replicas that share the database', async () => {
    const replica = await startApp({
      env: {
        DATABASE_URL: await app.databaseUrl(),
        ...(app.env.REDIS_URL ? { REDIS_URL: app.env.REDIS_URL } : {}),
        SESSION_SECRET,
        ROLE: 'api',
      },
    });
    try {
      const across = (browser: HttpVisitor) => {
        const other = new HttpVisitor(replica.baseUrl, CHROME);
        for (const [name, value] of browser.cookies) other.cookies.set(name, value);
        return other;
      };
      const raced = await opened();
      const there = across(raced.browser);
      const answers = await Promise.all([
        raced.browser.get(raced.src),
        there.get(raced.src),
        raced.browser.get(raced.src),
        there.get(raced.src),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410]);

      const moved = await opened();
      expect((await across(moved.browser).get(moved.src)).body).toContain(CONTENT);
      expectRefused(await moved.browser.get(moved.src));
    } finally {
      await replica.cleanup();
    }
  });

  it('shows the frame of the visit that consumed a one-time link, once', async () => {
    const link = await htmlLink({ oneTime: true });
    const browser = visitor();
    const page = await browser.post(link.path, { action: 'reveal' });
    expect(isDocument(page)).toBe(true);
    expect(await getShare(alice, link.share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    const src = frameSrc(page);
    expect((await browser.get(src)).body).toContain(CONTENT);
    expectRefused(await browser.get(src));
    expect((await browser.get(link.path)).status).toBe(410);
  });

  it('re-checks the share when the frame is fetched: revoked, trashed, purged, expired, quarantined', async () => {
    const revoked = await opened();
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: revoked.share.id } } }));
    expectRefused(await revoked.browser.get(revoked.src));

    const trashed = await opened();
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: trashed.fileId } } }));
    expectRefused(await trashed.browser.get(trashed.src));
    // Trashing revokes the file's shares too; the file's own trash mark refuses on its own as well.
    const marked = await opened();
    await sql(app, 'UPDATE files SET deleted_at = now() WHERE id = $1', [marked.fileId]);
    expectRefused(await marked.browser.get(marked.src));

    const purged = await opened();
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: purged.fileId } } }));
    const purge = await alice.console.DELETE('/api/console/trash/files/{id}', { params: { path: { id: purged.fileId } } });
    expect(purge.response.status).toBe(200);
    expect(await sql(app, 'SELECT id FROM shares WHERE id = $1', [purged.share.id])).toEqual([]);
    expectRefused(await purged.browser.get(purged.src));

    const expired = await opened({ expiresInDays: 1 });
    await sql(app, "UPDATE shares SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.share.id]);
    expectRefused(await expired.browser.get(expired.src));

    // The file moves on to a new CLEAN version, and the one the page was served is quarantined.
    const quarantined = await opened();
    await sql(
      app,
      `WITH v AS (INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
         VALUES ($1, 2, '<p>second</p>', 13, 'x', 'CLEAN') RETURNING id)
       UPDATE files SET current_version_id = (SELECT id FROM v) WHERE id = $1`,
      [quarantined.fileId],
    );
    await sql(app, "UPDATE file_versions SET scan_status = 'INFECTED' WHERE id = $1", [quarantined.versionId]);
    expectRefused(await quarantined.browser.get(quarantined.src));
    expect(isDocument(await visitor().get(quarantined.path))).toBe(true);

    // A consumed share is not refused for that reason alone (see the one-time case), and an
    // untouched share's ticket still works: the refusals above came from the state changes.
    const control = await opened({ maxVisits: 1 });
    expect((await getShare(alice, control.share.id)).consumedAt).toEqual(expect.any(String));
    expect((await control.browser.get(control.src)).body).toContain(CONTENT);
  });

  it('refuses a ticket after its short life (about 30 s), and the sweep then deletes its record', async () => {
    const ticketOf = (src: string) => {
      const ticket = src.slice('/s/_render/'.length);
      return {
        ticket,
        ...(JSON.parse(Buffer.from(ticket.split('.')[0]!, 'base64url').toString('utf8')) as { i: string; x: number }),
      };
    };
    const unused = await opened();
    const used = await opened();
    expect((await used.browser.get(used.src)).body).toContain(CONTENT);
    const { ticket, x, i: usedId } = ticketOf(used.src);
    expect(ticket.length).toBeLessThan(500);
    const left = x - Date.now() / 1000;
    expect(left).toBeLessThanOrEqual(30);
    expect(left).toBeGreaterThan(20);
    await new Promise((resolve) => setTimeout(resolve, (Math.max(x, ticketOf(unused.src).x) - Date.now() / 1000 + 1.5) * 1000));
    expectRefused(await unused.browser.get(unused.src));

    // The sweep's statement, on the app's database: expired records go, live ones stay.
    const live = await opened();
    expect((await live.browser.get(live.src)).status).toBe(200);
    const records = () =>
      sql<{ id: string }>(app, 'SELECT id FROM frame_tickets WHERE id = ANY($1)', [[usedId, ticketOf(live.src).i]]);
    expect(await records()).toHaveLength(2);
    const client = new pg.Client({ connectionString: await app.databaseUrl() });
    await client.connect();
    try {
      const deleted = await deleteExpiredFrameTickets({
        query: async (text: string, params?: unknown[]) => (await client.query(text, params)).rows,
      });
      expect(deleted).toBeGreaterThanOrEqual(1);
    } finally {
      await client.end();
    }
    expect((await records()).map((row) => row.id)).toEqual([ticketOf(live.src).i]);
  }, 70_000);

  it('watermarks the frame document with the text the page shows, and only when the share asks for it', async () => {
    const texted = await opened({ watermarkEnabled: true, watermarkText: 'ACME FRAME MARK' });
    expect(pageWatermark(texted.page)).toBe('ACME FRAME MARK');
    const textedFrame = await texted.browser.get(texted.src);
    expect(textedFrame.status).toBe(200);
    expect(textedFrame.body).toContain(
      `<style>html::after{content:"ACME${NBSP}FRAME${NBSP}MARK${MARK_GAP}ACME${NBSP}FRAME${NBSP}MARK${MARK_GAP}`,
    );
    expect(textedFrame.body).toContain('position:fixed!important');
    expect(textedFrame.body).toContain('pointer-events:none!important');
    expect(textedFrame.body).toContain(CONTENT);

    // No text of its own: the masked address (anonymous) and the minute of the view.
    const anonymous = await opened({ watermarkEnabled: true });
    const shown = pageWatermark(anonymous.page);
    expect(shown).toMatch(/^127\.0\.0\.0\/24 · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect((await anonymous.browser.get(anonymous.src)).body).toContain(`content:"${shown.replaceAll(' ', NBSP)}${MARK_GAP}`);

    // Signed in: the account's e-mail.
    const link = await htmlLink({ watermarkEnabled: true, copyProtectionEnabled: true });
    const asBob = visitor().withCookie(bob.cookie);
    const page = await asBob.get(link.path);
    const named = pageWatermark(page);
    expect(named.startsWith(`${bob.email} · `)).toBe(true);
    const bobFrame = await asBob.get(frameSrc(page));
    expect(bobFrame.body).toContain(`content:"${named.replaceAll(' ', NBSP)}${MARK_GAP}`);
    expect(bobFrame.body).toMatch(/^<!doctype html><script>[\s\S]*\(true\);<\/script><style>html::after/);

    const plain = await opened();
    const plainFrame = await plain.browser.get(plain.src);
    expect(plainFrame.body).toContain(CONTENT);
    expect(plainFrame.body).not.toContain('html::after');
    expect(plainFrame.body).not.toContain('127.0.0.0/24');
  });

  it('lets only the configured render origin frame the document, whatever the Host header says', async () => {
    const link = await htmlLink();
    const forged = new HttpVisitor('http://evil.example', CHROME, app.baseUrl);
    const page = await forged.get(link.path);
    expect(isDocument(page)).toBe(true);
    const framed = await forged.get(frameSrc(page));
    expect(framed.status).toBe(200);
    expect(framed.body).toContain(CONTENT);
    expect(framed.headers.get('content-security-policy')).toBe(
      `sandbox allow-scripts allow-popups; frame-ancestors ${app.baseUrl}`,
    );
    expect(framed.headers.get('content-security-policy')).not.toContain('evil.example');
  });

  it('never counts Office, Outlook and Teams link checks, HEAD or OPTIONS on a single-visit link', async () => {
    const link = await htmlLink({ maxVisits: 1 });
    for (const agent of OFFICE_CHECKERS) {
      for (const check of [
        visitor(agent).get(link.path),
        visitor(agent).head(link.path),
        visitor(agent).post(link.path, { action: 'reveal' }),
      ]) {
        const answer = await check;
        expect(answer.status).toBe(200);
        expect(answer.body).not.toContain('sd-frame');
      }
    }
    const head = await visitor().head(link.path);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const options = await fetch(`${app.baseUrl}${link.path}`, { method: 'OPTIONS', headers: { 'user-agent': CHROME } });
    expect(options.status).not.toBe(200);
    expect(await options.text()).not.toContain('sd-frame');
    expect(await getShare(alice, link.share.id)).toMatchObject({ visitCount: 0, consumedAt: null });

    const browser = visitor();
    const page = await browser.get(link.path);
    expect(isDocument(page)).toBe(true);
    expect((await browser.get(frameSrc(page))).body).toContain(CONTENT);
    expect(await getShare(alice, link.share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    expect((await visitor().get(link.path)).status).toBe(410);
  });

  it('keeps counting ordinary HTTP clients such as curl', async () => {
    const link = await htmlLink({ maxVisits: 1 });
    const scripted = await visitor('curl/8.5.0').get(link.path);
    expect(isDocument(scripted)).toBe(true);
    expect(await getShare(alice, link.share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
  });
});
