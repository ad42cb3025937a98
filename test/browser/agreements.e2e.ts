import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, getShare, launchChromium, share, sql, upload, type ShareInput } from '../support/browser.js';

const TEMPLATE = '{name} · {email} · {date}';

/**
 * A signed-in reader with a proven address goes through a link's password and agreement (tick,
 * name, submit) to the document, whose watermark names them; the sandboxed frame of an HTML
 * document shows the same text as the page around it.
 */
describe('agreements and reader-naming watermarks in a real browser', () => {
  let app: RunningApp;
  let alice: TestUser;
  let reader: TestUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    [alice, reader] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    await sql(app, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [reader.userId]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  /** A new browser profile, signed in as the reader. */
  async function signedIn(): Promise<Page> {
    await context?.close();
    context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: 'en-US' });
    const [name, value] = reader.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.baseUrl }]);
    page = await context.newPage();
    return page;
  }

  async function shared(name: string, content: string, input: ShareInput): Promise<{ id: string; url: string }> {
    const doc = await upload(app, alice, name, content);
    const created = await share(alice, doc.fileId, input);
    return { id: created.share.id, url: created.url };
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
  const today = () => new Date().toISOString().slice(0, 10);

  /** Ticks the agreement's box, types the name and sends the form. */
  async function agree(name: string): Promise<void> {
    await page.waitForSelector('input[name="accept"]');
    await page.check('input[name="accept"]');
    await page.fill('input[name="name"]', name);
    await page.click('button[type="submit"]');
  }

  it('password, then the agreement, then the document with a watermark naming the reader', async () => {
    const link = await shared(`nda-${Date.now()}.md`, '# Quarterly plan\n\nThe numbers.', {
      password: 'swordfish',
      agreement: { text: '# NDA\n\nYou keep **all of it** to yourself.', requireName: true },
      watermarkEnabled: true,
      watermarkText: TEMPLATE,
    });
    await signedIn();
    expect((await page.goto(link.url))!.status()).toBe(401);
    await page.fill('input[name="password"]', 'swordfish');
    await page.click('button[type="submit"]');

    await page.waitForSelector('.sd-agreement');
    expect(await page.textContent('.sd-agreement strong')).toBe('all of it');
    expect(await page.locator('.sd-doc h1').filter({ hasText: 'Quarterly plan' }).count()).toBe(0);
    expect((await getShare(alice, link.id)).visitCount).toBe(0);
    await shot('agreement-form');
    // The browser itself will not send the form without the tick and the name.
    await page.click('button[type="submit"]');
    expect(await page.locator('input[name="accept"]').count()).toBe(1);
    await agree('Rita Reader');

    await page.waitForSelector('article.sd-doc h1');
    expect(await page.textContent('article.sd-doc h1')).toBe('Quarterly plan');
    expect(new URL(page.url()).pathname).toBe(new URL(link.url).pathname);
    expect(await page.textContent('.sd-wm span')).toBe(`Rita Reader · ${reader.email} · ${today()}`);
    await shot('agreement-watermark');
    expect((await getShare(alice, link.id)).visitCount).toBe(1);

    // A reload asks for nothing again (the password access and the acceptance hold).
    await page.reload();
    await page.waitForSelector('article.sd-doc h1');
    expect((await getShare(alice, link.id)).visitCount).toBe(2);
    const listed = await unwrap(
      alice.api.GET('/api/v1/shares/{id}/acceptances', { params: { path: { id: link.id }, query: {} } }),
    );
    expect(listed.acceptances).toEqual([
      expect.objectContaining({ name: 'Rita Reader', email: reader.email, ipPrefix: '127.0.0.0/24' }),
    ]);
  });

  it('the frame of an HTML document shows the same watermark text as its page', async () => {
    const link = await shared(
      `framed-${Date.now()}.html`,
      '<!doctype html><html><head><title>framed</title></head><body><h1>Framed plan</h1></body></html>',
      { agreement: { text: 'Terms of the frame', requireName: true }, watermarkEnabled: true, watermarkText: TEMPLATE },
    );
    await signedIn();
    await page.goto(link.url);
    await agree('Rita Reader');
    await page.waitForSelector('iframe.sd-frame');
    await page.frameLocator('iframe.sd-frame').locator('h1').waitFor();
    const expected = `Rita Reader · ${reader.email} · ${today()}`;
    expect(await page.textContent('.sd-wm span')).toBe(expected);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    // The frame's marks keep their spaces unbreakable.
    const mark = (await frame.evaluate(() => getComputedStyle(document.documentElement, '::after').content)).replace(
      /\u00a0/g,
      ' ',
    );
    expect(mark.slice(0, expected.length + 1)).toBe(`"${expected}`);
    expect(mark).not.toContain('{');
    await shot('agreement-frame-watermark');
  });
});
