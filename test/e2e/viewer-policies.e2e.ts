import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import {
  HttpVisitor,
  getShare,
  isDocument,
  share,
  sql,
  upload,
  type ShareInput,
  type UploadedDocument,
} from '../support/browser.js';

const MARKDOWN = [
  '# Quarterly plan',
  '',
  'The **secret** sauce.',
  '',
  '<script>alert("x")</script><img src="https://example.com/a.png" onerror="alert(1)">',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
  '',
].join('\n');
const SECRET = 'The <strong>secret</strong> sauce.';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** One request: the answer's headers as sent (in their order, as `name: value`) and its body's bytes. */
function exchange(url: string, method: string, cookie: string): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the share viewer', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob, carol] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl), createUser(app.baseUrl)]);
    // Allowlists and the signed-in watermark count proven addresses only; this instance has no SMTP to prove them with.
    await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = ANY($1)', [[bob.userId, carol.userId]]);
    doc = await upload(app, alice, 'plan.md', MARKDOWN);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  const visitor = (userAgent?: string) => new HttpVisitor(app.baseUrl, userAgent);
  const link = async (input: ShareInput = {}, fileId = doc.fileId) => {
    const created = await share(alice, fileId, input);
    return { ...created, path: pathOf(created.url) };
  };

  it('renders Markdown sanitized and highlighted, with the security headers', async () => {
    const { path, share: created } = await link();
    const page = await visitor().get(path);
    expect(page.status).toBe(200);
    expect(page.body).toContain(SECRET);
    expect(page.body).toMatch(/<span class="hljs-keyword">const<\/span>/);
    expect(page.body).not.toMatch(/<script>alert|onerror/);
    expect(page.body).toContain('<meta name="robots" content="noindex');
    expect(page.body).toContain(`href="${path}/report"`);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    // The page's only script and stylesheet are static files under /s/_assets/.
    const script = /<script src="(\/s\/_assets\/viewer\.[^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await fetch(`${app.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await getShare(alice, created.id)).visitCount).toBe(1);
  });

  it('renders plain text escaped', async () => {
    const text = await upload(app, alice, 'raw.txt', 'a <b>bold</b> claim\n\nsecond & last');
    const { path } = await link({}, text.fileId);
    const page = await visitor().get(path);
    expect(page.body).toContain('<p class="sd-text">a &lt;b&gt;bold&lt;/b&gt; claim</p>');
    expect(page.body).toContain('second &amp; last');
  });

  it("sends a document's page whole: the headers of its HEAD, a Content-Length, never chunked, the document as rendered", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `## Teil ${i}\n\nGrüße **${i}**, 世界 <i>${i}</i>.\n`).join('\n');
    const document = await upload(app, alice, 'long.md', long);
    const { path } = await link({ watermarkEnabled: true, copyProtectionEnabled: true }, document.fileId);
    const browser = visitor();
    expect(isDocument(await browser.get(path))).toBe(true);
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const page = await exchange(`${app.baseUrl}${path}`, 'GET', cookie);
    const head = await exchange(`${app.baseUrl}${path}`, 'HEAD', cookie);
    expect(page.status).toBe(200);
    expect(head.status).toBe(200);
    // A page goes out in parts past Fastify's reply.send, a HEAD through it: the same headers, in
    // the same order, bar those of the one answer (its id, time and length).
    const own = (line: string) => line.replace(/^(X-Request-Id|Date|Content-Length): .*$/i, '$1');
    expect(page.headers.map(own)).toEqual(head.headers.map(own));
    expect(page.headers).toContain(`content-length: ${page.body.length}`);
    expect(page.headers.join('\n')).not.toMatch(/transfer-encoding/i);
    expect(head.body.length).toBe(0);
    const [rendered] = await sql<{ html: string }>(app, 'SELECT rendered_html AS html FROM file_versions WHERE id = $1', [
      document.versionId,
    ]);
    const html = rendered!.html.replace(/^<!--sdr:\d+-->/, '');
    expect(html).toContain('<h2>Teil 399</h2>');
    const text = page.body.toString('utf8');
    expect(text.startsWith('<!doctype html>')).toBe(true);
    expect(text.endsWith('</body></html>')).toBe(true);
    expect(text.split(`<article class="sd-doc">${html}</article>`)).toHaveLength(2);
    expect(text).toContain('<html lang="zh-CN" class="sd-protect">');
    expect(text).toContain('<div class="sd-wm" aria-hidden="true">');
  });

  it('serves HTML only inside a sandboxed frame, through a ticket that an admitted view minted', async () => {
    const html = await upload(
      app,
      alice,
      'page.html',
      '<!doctype html><html><head><title>t</title></head><body><h1 id="x">Author page</h1><script>document.title = "ran";</script></body></html>',
    );
    const { path, share: created } = await link({ maxVisits: 5 }, html.fileId);
    const browser = visitor();
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('Author page');
    const frame = /<iframe class="sd-frame" src="([^"]+)" sandbox="allow-scripts allow-popups"/.exec(page.body);
    expect(frame).not.toBeNull();
    const src = frame![1]!.replace(/&amp;/g, '&');
    expect(src).toMatch(/^\/s\/_render\//);

    // Only the browser that was shown the page (its visitor cookie) gets the frame.
    const framed = await browser.get(src);
    expect(framed.status).toBe(200);
    expect(framed.body).toContain('<h1 id="x">Author page</h1>');
    expect(framed.body.startsWith('<!doctype html><script>')).toBe(true);
    expect(framed.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts allow-popups;/);
    expect(framed.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect(framed.headers.get('x-content-type-options')).toBe('nosniff');
    // Fetching the frame is not a visit, and the frame cannot be reached without a valid ticket.
    expect((await getShare(alice, created.id)).visitCount).toBe(1);
    const forged = src.slice(0, -3) + (src.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const bad of [forged, '/s/_render/nothing', `/s/_render/${src.split('/').pop()!.split('.')[0]}`]) {
      const refused = await visitor().get(bad);
      expect(refused.status).toBe(410);
      expect(refused.body).not.toContain('Author page');
    }
  });

  it('answers unknown links, and known tokens under a foreign segment, with a 404 page', async () => {
    const { share: created } = await link();
    for (const path of [
      `/s/${alice.segment}/doesnotexist`,
      `/s/nobody-here/${created.token}`,
      `/s/${bob.segment}/${created.token}`,
      '/s/unknowntoken123',
    ]) {
      const page = await visitor().get(path);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.body).not.toContain(SECRET);
    }
  });

  it('answers malformed links with the 404 page, never a server error', async () => {
    for (const path of ['/s/%00abc', `/s/${alice.segment}/abc%00def`, '/s/a%27%3B--/token-x', `/s/${'x'.repeat(70)}`]) {
      const page = await visitor().get(path);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
    }
  });

  it('serves the legacy /s/<token> form and slugs in any case under both forms', async () => {
    const { share: created } = await link();
    expect(isDocument(await visitor().get(`/s/${created.token}`))).toBe(true);
    const slug = `Plan-${Date.now()}`;
    await link({ slug });
    for (const path of [
      `/s/${slug}`,
      `/s/${slug.toLowerCase()}`,
      `/s/${alice.segment}/${slug.toUpperCase()}`,
      `/s/${alice.segment.toUpperCase()}/${slug}`,
    ]) {
      expect(isDocument(await visitor().get(path))).toBe(true);
    }
  });

  it('counts every render and each distinct visitor once, by cookie or else by address prefix and User-Agent', async () => {
    const { path, share: created } = await link();
    const first = visitor('Agent/1');
    await first.get(path);
    await first.get(path);
    expect(first.cookies.has('sd_visitor')).toBe(true);
    // Without its cookie, the same agent from the same network is still the same visitor.
    await visitor('Agent/1').get(path);
    await visitor('Agent/2').get(path);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 4, uniqueVisitCount: 2 });
    const hours = await sql<{ visits: number }>(app, 'SELECT visits FROM share_visit_hours WHERE share_id = $1', [created.id]);
    expect(hours.reduce((sum, row) => sum + row.visits, 0)).toBe(4);
  });

  it('answers expired, revoked and used-up links with 410 and never the content', async () => {
    const expiring = await link({ expiresInDays: 1 });
    expect(isDocument(await visitor().get(expiring.path))).toBe(true);
    await sql(app, "UPDATE shares SET expires_at = now() - interval '1 second' WHERE id = $1", [expiring.share.id]);
    const revoked = await link();
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: revoked.share.id } } }));
    const used = await link({ maxVisits: 1 });
    expect(isDocument(await visitor().get(used.path))).toBe(true);
    for (const { path } of [expiring, revoked, used]) {
      const page = await visitor().get(path);
      expect(page.status).toBe(410);
      expect(page.body).not.toContain(SECRET);
    }
    expect(await getShare(alice, used.share.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    expect((await getShare(alice, expiring.share.id)).visitCount).toBe(1);
  });

  it('shows scan states instead of content: being scanned, scan error, quarantined', async () => {
    const scanned = await upload(app, alice, 'scanned.md', MARKDOWN);
    const { path, share: created } = await link({}, scanned.fileId);
    const setStatus = (status: string) =>
      sql(app, 'UPDATE file_versions SET scan_status = $2 WHERE id = $1', [scanned.versionId, status]);
    await setStatus('PENDING');
    const pending = await visitor().get(path);
    await setStatus('SCAN_ERROR');
    const failed = await visitor().get(path);
    await setStatus('INFECTED');
    const infected = await visitor().get(path);
    await setStatus('CLEAN');
    expect(pending.status).toBe(503);
    expect(pending.body).toContain('正在进行安全扫描');
    expect(failed.status).toBe(503);
    expect(failed.body).toContain('安全扫描暂时失败');
    expect(infected.status).toBe(410);
    for (const page of [pending, failed, infected]) expect(page.body).not.toContain(SECRET);
    expect((await getShare(alice, created.id)).visitCount).toBe(0);
    expect(isDocument(await visitor().get(path))).toBe(true);
  });

  it('serves a pinned version even after the file moves on', async () => {
    const versioned = await upload(app, alice, 'versioned.md', '# first version');
    const pinned = await link({ lockedVersionId: versioned.versionId }, versioned.fileId);
    const current = await link({}, versioned.fileId);
    // A second version, as the console's overwrite makes it.
    await sql(
      app,
      `WITH v AS (INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
         VALUES ($1, 2, '# second version', 16, 'x', 'CLEAN') RETURNING id)
       UPDATE files SET current_version_id = (SELECT id FROM v) WHERE id = $1`,
      [versioned.fileId],
    );
    expect((await visitor().get(pinned.path)).body).toContain('first version');
    expect((await visitor().get(current.path)).body).toContain('second version');
  });

  it('keeps a password link behind its form; a wrong password never counts a visit', async () => {
    const { path, share: created } = await link({ password: 'hunter22' });
    const other = await link({ password: 'hunter22' });
    const browser = visitor();
    const form = await browser.get(path);
    expect(form.status).toBe(401);
    expect(form.body).toContain('name="password"');
    expect(form.body).not.toContain(SECRET);

    const wrong = await browser.post(path, { action: 'password', password: 'hunter23' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('密码不正确');
    expect((await getShare(alice, created.id)).visitCount).toBe(0);

    const right = await browser.post(path, { action: 'password', password: 'hunter22' });
    expect(right.status).toBe(303);
    expect(right.location).toBe(path);
    expect((await getShare(alice, created.id)).visitCount).toBe(0);
    expect(isDocument(await browser.get(path))).toBe(true);
    expect(isDocument(await browser.get(path))).toBe(true);
    expect((await getShare(alice, created.id)).visitCount).toBe(2);
    // The access is for that share only.
    expect((await browser.get(other.path)).status).toBe(401);
  });

  it('throttles password attempts per share and client', async () => {
    const { path } = await link({ password: 'correct-one' });
    const other = await link({ password: 'correct-one' });
    const browser = visitor();
    for (let i = 0; i < 10; i++)
      expect((await browser.post(path, { action: 'password', password: `guess-${i}` })).status).toBe(401);
    const limited = await browser.post(path, { action: 'password', password: 'correct-one' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).not.toContain(SECRET);
    expect((await browser.post(other.path, { action: 'password', password: 'correct-one' })).status).toBe(303);
  });

  it('asks anonymous visitors of a login link to sign in, then returns them to the link', async () => {
    const { path } = await link({ requireLogin: true });
    const browser = visitor();
    const gate = await browser.get(path);
    expect(gate.status).toBe(401);
    expect(gate.body).toContain(`/login?redirect=${encodeURIComponent(path)}&amp;next=${encodeURIComponent(path)}`);
    expect(gate.body).toContain('action="/s/_login"');
    expect(gate.body).not.toContain(SECRET);

    const wrong = await browser.post('/s/_login', { email: bob.email, password: 'not his password', next: path });
    expect(wrong.status).toBe(401);
    const signedIn = await browser.post('/s/_login', { email: bob.email, password: bob.password, next: path });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(path);
    expect(browser.cookies.has('sharedown_session')).toBe(true);
    expect(isDocument(await browser.get(path))).toBe(true);
    // The console session is the same one.
    expect(isDocument(await visitor().withCookie(carol.cookie).get(path))).toBe(true);
    // An absolute return address is never followed.
    const offsite = await visitor().post('/s/_login', {
      email: bob.email,
      password: bob.password,
      next: 'https://evil.example/',
    });
    expect(offsite.location).toBe('/s/');
  });

  it('admits only allowlisted accounts', async () => {
    const { path } = await link({ emailAllowlist: [bob.email.toUpperCase()] });
    expect((await visitor().get(path)).status).toBe(401);
    const refused = await visitor().withCookie(carol.cookie).get(path);
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain(SECRET);
    expect(isDocument(await visitor().withCookie(bob.cookie).get(path))).toBe(true);
  });

  it('caps visits per signed-in account, together with a total cap', async () => {
    const { path, share: created } = await link({ perLoginUserMaxVisits: 2, maxVisits: 3 });
    const asBob = visitor().withCookie(bob.cookie);
    expect(isDocument(await asBob.get(path))).toBe(true);
    expect(isDocument(await visitor().withCookie(bob.cookie).get(path))).toBe(true);
    const third = await asBob.get(path);
    expect(third.status).toBe(410);
    expect(third.body).not.toContain(SECRET);
    expect(isDocument(await visitor().withCookie(carol.cookie).get(path))).toBe(true);
    expect((await visitor().withCookie(carol.cookie).get(path)).status).toBe(410);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 3, consumedAt: expect.any(String) });
  });

  it('caps visits per visitor', async () => {
    const { path, share: created } = await link({ perVisitorMaxVisits: 2 });
    const first = visitor('Reader/1');
    expect(isDocument(await first.get(path))).toBe(true);
    expect(isDocument(await first.get(path))).toBe(true);
    expect((await first.get(path)).status).toBe(410);
    expect(isDocument(await visitor('Reader/2').get(path))).toBe(true);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 3, uniqueVisitCount: 2, consumedAt: null });
  });

  it('gives a one-session link to the first browser session that opens it', async () => {
    const { path } = await link({ oneSession: true });
    const owner = visitor('Session/1');
    expect(isDocument(await owner.get(path))).toBe(true);
    expect(isDocument(await owner.get(path))).toBe(true);
    const stranger = await visitor('Session/2').get(path);
    expect(stranger.status).toBe(403);
    expect(stranger.body).not.toContain(SECRET);
    // Closing the browser ends its session: the owner is a stranger afterwards.
    owner.cookies.delete('sd_browser');
    expect((await owner.get(path)).status).toBe(403);
  });

  it('opens a one-time link only through the reveal step; HEAD and link previews never consume it', async () => {
    const { path, share: created } = await link({ oneTime: true });
    const head = await visitor().head(path);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const preview = await visitor(SLACKBOT).get(path);
    expect(preview.status).toBe(200);
    expect(preview.body).not.toContain(SECRET);
    const reveal = await visitor().get(path);
    expect(reveal.status).toBe(200);
    expect(reveal.body).toContain('name="action" value="reveal"');
    expect(reveal.body).not.toContain(SECRET);
    expect(
      await visitor(SLACKBOT)
        .post(path, { action: 'reveal' })
        .then((v) => v.body),
    ).not.toContain(SECRET);
    expect((await getShare(alice, created.id)).visitCount).toBe(0);

    const crossSite = await visitor().post(path, { action: 'reveal' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const opened = await visitor().post(path, { action: 'reveal' });
    expect(isDocument(opened)).toBe(true);
    expect(opened.body).toContain(SECRET);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    expect((await visitor().get(path)).status).toBe(410);
    expect((await visitor().post(path, { action: 'reveal' })).status).toBe(410);
  });

  it('puts burn-after-read links behind the reveal step too', async () => {
    const { path, share: created } = await link({ burnAfterReadEnabled: true });
    expect((await visitor().get(path)).body).toContain('value="reveal"');
    const opened = await visitor().post(path, { action: 'reveal' });
    expect(isDocument(opened)).toBe(true);
    expect(opened.body).toContain('data-burn="1"');
    expect((await getShare(alice, created.id)).visitCount).toBe(1);
  });

  it('combines password, maxVisits and oneTime: the password is the deliberate step, once', async () => {
    const { path, share: created } = await link({ password: 'one-shot', maxVisits: 4, oneTime: true });
    expect(created.maxVisits).toBe(1);
    const browser = visitor();
    expect((await browser.get(path)).status).toBe(401);
    expect((await browser.post(path, { action: 'password', password: 'wrong-shot' })).status).toBe(401);
    expect((await getShare(alice, created.id)).visitCount).toBe(0);
    const opened = await browser.post(path, { action: 'password', password: 'one-shot' });
    expect(isDocument(opened)).toBe(true);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
    expect((await browser.get(path)).status).toBe(410);
    expect((await visitor().post(path, { action: 'password', password: 'one-shot' })).status).toBe(410);
  });

  it('combines login, allowlist, per-login cap, watermark and copy protection', async () => {
    const { path } = await link({
      emailAllowlist: [bob.email],
      perLoginUserMaxVisits: 1,
      watermarkEnabled: true,
      copyProtectionEnabled: true,
    });
    const asBob = visitor().withCookie(bob.cookie);
    const page = await asBob.get(path);
    expect(isDocument(page)).toBe(true);
    expect(page.body).toContain('<html lang="zh-CN" class="sd-protect">');
    expect(page.body).toContain('data-copy="1"');
    // No watermark text set: the visitor's e-mail and the time.
    expect(page.body).toMatch(
      new RegExp(
        `<div class="sd-wm" aria-hidden="true"><span>${bob.email.replace(/[.+]/g, '\\$&')} · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC</span>`,
      ),
    );
    expect((await asBob.get(path)).status).toBe(410);
    expect((await visitor().withCookie(carol.cookie).get(path)).status).toBe(403);
  });

  it('uses the watermark text when one is set, and the masked address for anonymous visitors otherwise', async () => {
    const texted = await link({ watermarkEnabled: true, watermarkText: 'ACME <internal>' });
    expect((await visitor().get(texted.path)).body).toContain('<span>ACME &lt;internal&gt;</span>');
    const anonymous = await link({ watermarkEnabled: true });
    expect((await visitor().get(anonymous.path)).body).toMatch(/<span>127\.0\.0\.0\/24 · /);
  });
});
