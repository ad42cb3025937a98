import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, getShare, launchChromium, share, upload, type ShareInput } from '../support/browser.js';

const LONG_MARKDOWN = Array.from(
  { length: 40 },
  (_, i) => `## Part ${i + 1}\n\nParagraph ${i + 1}. ${'Words to read slowly and carefully. '.repeat(12)}\n`,
).join('\n');

/** An author's page that tries everything a hostile document could try with the visitor's browser. */
const PROBE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>probe</title></head>
<body><h1>Probe document</h1><pre id="out">running</pre>
<script>
(async () => {
  const report = {};
  try { report.cookie = document.cookie; } catch (e) { report.cookie = 'error:' + e.name; }
  try { localStorage.setItem('k', 'v'); report.storage = 'available'; } catch (e) { report.storage = 'error:' + e.name; }
  try { report.parentBody = window.parent.document.body.innerHTML.length; } catch (e) { report.parentBody = 'error:' + e.name; }
  for (const [key, path] of [['session', '/api/auth/session'], ['me', '/api/v1/me'], ['tokens', '/api/tokens']]) {
    try {
      const response = await fetch('${'${BASE}'}' + path, { credentials: 'include' });
      report[key] = response.status + ':' + (await response.text()).slice(0, 200);
    } catch (e) {
      report[key] = 'error:' + e.name;
    }
  }
  try {
    const made = await fetch('${'${BASE}'}/api/tokens', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'stolen' }) });
    report.createToken = made.status;
  } catch (e) {
    report.createToken = 'error:' + e.name;
  }
  report.origin = String(self.origin);
  document.getElementById('out').textContent = JSON.stringify(report);
})();
</script></body></html>`;

describe('the viewer in a real browser', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  async function fresh(): Promise<Page> {
    await context?.close();
    context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: 'zh-CN' });
    page = await context.newPage();
    return page;
  }

  async function shared(name: string, content: string, input: ShareInput): Promise<{ id: string; url: string }> {
    const doc = await upload(app, alice, name, content);
    const created = await share(alice, doc.fileId, input);
    return { id: created.share.id, url: created.url };
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });

  it('opens a password link through its form', async () => {
    const link = await shared('password.md', '# Behind a password\n\nThe content.', { password: 'swordfish' });
    await fresh();
    const gate = await page.goto(link.url);
    expect(gate!.status()).toBe(401);
    await shot('password-form');
    await page.fill('input[name="password"]', 'wrong-fish');
    await page.click('button[type="submit"]');
    await expect.poll(() => page.textContent('.sd-error')).toContain('密码不正确');
    await page.fill('input[name="password"]', 'swordfish');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.sd-doc h1');
    expect(await page.textContent('.sd-doc h1')).toBe('Behind a password');
    expect(new URL(page.url()).pathname).toBe(new URL(link.url).pathname);
    await shot('password-opened');
    expect((await getShare(alice, link.id)).visitCount).toBe(1);
  });

  it('shows a one-time link only after the reveal click, and never again', async () => {
    const link = await shared('once.md', '# Only once\n\nRead it now.', { oneTime: true });
    await fresh();
    await page.goto(link.url);
    expect(await page.locator('.sd-doc').count()).toBe(0);
    expect((await getShare(alice, link.id)).visitCount).toBe(0);
    await shot('reveal');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.sd-doc h1');
    expect(await page.textContent('.sd-doc h1')).toBe('Only once');
    const again = await (await fresh()).goto(link.url);
    expect(again!.status()).toBe(410);
  });

  it('keeps the watermark over the whole document, while scrolling and when printing', async () => {
    const link = await shared('watermarked.md', LONG_MARKDOWN, { watermarkEnabled: true, watermarkText: 'ACME CONFIDENTIAL' });
    await fresh();
    await page.goto(link.url);
    const overlay = page.locator('.sd-wm');
    expect(await overlay.isVisible()).toBe(true);
    const covers = async () =>
      page.evaluate(() => {
        const box = document.querySelector('.sd-wm')!.getBoundingClientRect();
        const style = getComputedStyle(document.querySelector('.sd-wm')!);
        const span = document.querySelector('.sd-wm span')!;
        return {
          top: box.top,
          left: box.left,
          coversWidth: box.width >= innerWidth,
          coversHeight: box.height >= innerHeight,
          position: style.position,
          pointerEvents: style.pointerEvents,
          text: span.textContent,
          visibleText: getComputedStyle(span).color !== 'rgba(0, 0, 0, 0)',
        };
      });
    expect(await covers()).toMatchObject({
      top: 0,
      left: 0,
      coversWidth: true,
      coversHeight: true,
      position: 'fixed',
      pointerEvents: 'none',
      text: 'ACME CONFIDENTIAL',
      visibleText: true,
    });
    await page.evaluate(() => window.scrollTo(0, 4000));
    expect(await covers()).toMatchObject({ top: 0, coversWidth: true, coversHeight: true });
    // Painted above everything else on the page (hit testing skips it: clicks go through to the text).
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.sd-wm')!).zIndex)).toBe('2147483647');
    await shot('watermark');
    await page.emulateMedia({ media: 'print' });
    expect(await overlay.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
  });

  it('blocks selection, copying, the context menu and printing when copy protection is on', async () => {
    const link = await shared('protected.md', '# Protected\n\nDo not copy this sentence.', { copyProtectionEnabled: true });
    await fresh();
    await page.goto(link.url);
    await page.waitForSelector('.sd-doc h1');
    await page.click('.sd-doc p', { clickCount: 3 });
    await page.keyboard.press('Control+A');
    expect(await page.evaluate(() => String(window.getSelection()))).toBe('');
    const blocked = await page.evaluate(() =>
      ['copy', 'cut', 'contextmenu', 'selectstart', 'dragstart'].map((type) => {
        const event = new Event(type, { bubbles: true, cancelable: true });
        document.querySelector('.sd-doc p')!.dispatchEvent(event);
        return event.defaultPrevented;
      }),
    );
    expect(blocked).toEqual([true, true, true, true, true]);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.sd-doc p')!).userSelect)).toBe('none');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.sd-doc').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.locator('.sd-doc').isVisible()).toBe(true);
  });

  it('hides what was read on a burn-after-read link and resumes at the first unread part after a reload', async () => {
    const link = await shared('burn.md', LONG_MARKDOWN, { burnAfterReadEnabled: true });
    await fresh();
    await page.goto(link.url);
    await page.click('button[type="submit"]');
    await page.waitForSelector('.sd-doc h2');
    await page.evaluate(() => window.scrollTo(0, 2500));
    await expect.poll(() => page.locator('.sd-doc .sd-burned').count()).toBeGreaterThan(3);
    const burned = await page.locator('.sd-doc .sd-burned').count();
    const firstUnread = await page.evaluate((n) => document.querySelector('.sd-doc')!.children[n]!.textContent, burned);
    expect(await page.locator('.sd-doc > :first-child').isVisible()).toBe(false);
    await shot('burn-reading');

    await page.reload();
    await page.waitForSelector('.sd-doc h2:not(.sd-gone)');
    const resumed = await page.evaluate(() => {
      const blocks = [...document.querySelector('.sd-doc')!.children];
      const firstShown = blocks.find((block) => getComputedStyle(block).display !== 'none')!;
      return {
        gone: blocks.filter((block) => getComputedStyle(block).display === 'none').length,
        firstShown: firstShown.textContent,
        top: firstShown.getBoundingClientRect().top,
        scrollY,
      };
    });
    expect(resumed.gone).toBeGreaterThanOrEqual(burned);
    expect(resumed.firstShown).toBe(
      await page.evaluate((n) => document.querySelector('.sd-doc')!.children[n]!.textContent, resumed.gone),
    );
    expect(resumed.gone === burned ? resumed.firstShown : firstUnread).toBe(firstUnread);
    expect(resumed.scrollY).toBe(0);
    expect(await page.locator('.sd-burn-note').isVisible()).toBe(true);
    await shot('burn-resumed');
  });

  it('protects an HTML document in its frame: watermark above it, no copying inside, burn progress kept by the viewer page', async () => {
    const sections = Array.from(
      { length: 30 },
      (_, i) => `<section><h2>Block ${i + 1}</h2><p>${'Author words. '.repeat(60)}</p></section>`,
    ).join('');
    const link = await shared(
      'framed.html',
      `<!doctype html><html><head><title>framed</title></head><body>${sections}</body></html>`,
      {
        watermarkEnabled: true,
        watermarkText: 'FRAMED SECRET',
        copyProtectionEnabled: true,
        burnAfterReadEnabled: true,
      },
    );
    await fresh();
    await page.goto(link.url);
    await page.click('button[type="submit"]');
    await page.waitForSelector('iframe.sd-frame');
    const frame = page.frameLocator('iframe.sd-frame');
    await frame.locator('h2').first().waitFor();
    expect(await page.locator('.sd-wm').isVisible()).toBe(true);
    expect(await page.textContent('.sd-wm span')).toBe('FRAMED SECRET');

    const inner = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await inner.evaluate(() => getComputedStyle(document.querySelector('p')!).userSelect)).toBe('none');
    expect(
      await inner.evaluate(() => {
        const event = new Event('copy', { bubbles: true, cancelable: true });
        document.querySelector('p')!.dispatchEvent(event);
        return event.defaultPrevented;
      }),
    ).toBe(true);

    await inner.evaluate(() => window.scrollTo(0, 3000));
    await expect
      .poll(() => page.evaluate(() => Object.entries(localStorage).find(([key]) => key.startsWith('sd-burn:'))?.[1] ?? '0'))
      .not.toBe('0');
    const burned = Number(
      await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.startsWith('sd-burn:'))![1]),
    );
    expect(burned).toBeGreaterThan(2);
    await shot('html-framed');

    await page.reload();
    await page.waitForSelector('iframe.sd-frame');
    const again = page.frames().find((f) => f !== page.mainFrame())!;
    await again.waitForSelector('h2', { state: 'attached' });
    await expect
      .poll(() =>
        again.evaluate(() => [...document.body.children].filter((el) => getComputedStyle(el).display === 'none').length),
      )
      .toBeGreaterThanOrEqual(burned);
    const firstShown = await again.evaluate(
      () =>
        [...document.querySelectorAll('section')].find((el) => getComputedStyle(el).display !== 'none')!.querySelector('h2')!
          .textContent,
    );
    expect(firstShown).toBe(`Block ${burned + 1}`);
  });

  it("runs a shared HTML document's script in an opaque origin without the visitor's credentials", async () => {
    const probe = PROBE_HTML.replaceAll('${BASE}', app.baseUrl);
    const link = await shared('probe.html', probe, {});
    await fresh();
    // The visitor is signed in to the console in this browser.
    const session = /sharedown_session=([^;]+)/.exec(bob.cookie)![1]!;
    await context.addCookies([{ name: 'sharedown_session', value: session, url: app.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    expect(await page.goto(`${app.baseUrl}/api/auth/session`).then((r) => r!.status())).toBe(200);

    await page.goto(link.url);
    const frame = page.frameLocator('iframe.sd-frame');
    await expect.poll(() => frame.locator('#out').textContent(), { timeout: 15_000 }).not.toBe('running');
    const report = JSON.parse((await frame.locator('#out').textContent())!) as Record<string, unknown>;
    await shot('html-isolated');
    expect(report.origin).toBe('null');
    expect(String(report.cookie)).not.toContain('sharedown_session');
    expect(String(report.storage)).toMatch(/^error:/);
    expect(String(report.parentBody)).toMatch(/^error:/);
    for (const key of ['session', 'me', 'tokens']) {
      const answer = String(report[key]);
      expect(answer).not.toContain(bob.email);
      expect(answer).toMatch(/^(error:|401:)/);
    }
    expect(String(report.createToken)).toMatch(/^(error:|401|403)/);
    const tokens = await fetch(`${app.baseUrl}/api/tokens`, { headers: { cookie: bob.cookie } }).then(
      (r) => r.json() as Promise<{ tokens: Array<{ name: string }> }>,
    );
    expect(tokens.tokens.map((t) => t.name)).not.toContain('stolen');

    // Opened directly, the frame URL is still sandboxed, and it needs a ticket anyway. A ticket
    // works once (the iframe used this page's), so this browser asks the link for a fresh one.
    const again = await context.request.get(link.url);
    const src = /<iframe class="sd-frame" src="([^"]+)"/.exec(await again.text())![1]!.replace(/&amp;/g, '&');
    const direct = await context.newPage();
    await direct.goto(`${app.baseUrl}${src}`);
    await expect.poll(() => direct.textContent('#out'), { timeout: 15_000 }).not.toBe('running');
    const directReport = JSON.parse((await direct.textContent('#out'))!) as Record<string, unknown>;
    expect(directReport.origin).toBe('null');
    expect(String(directReport.cookie)).toBe('error:SecurityError');
    expect(String(directReport.session)).not.toContain(bob.email);
  });
});
