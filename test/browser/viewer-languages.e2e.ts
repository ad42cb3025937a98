import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { getShare, launchChromium, share, upload } from '../support/browser.js';

describe('the viewer in the visitor’s language', () => {
  let app: RunningApp;
  let alice: TestUser;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  it('shows the reveal step of one one-time link in the language each browser asks for', async () => {
    const doc = await upload(app, alice, 'plan.md', '# The plan\n\nRead it once.');
    const link = await share(alice, doc.fileId, { oneTime: true });
    const expected = {
      'en-US': { lang: 'en', title: 'Open the document', button: 'View document', note: 'This is a one-time link' },
      'de-DE': { lang: 'de', title: 'Dokument öffnen', button: 'Dokument ansehen', note: 'Dies ist ein Einmal-Link' },
      'ja-JP': {
        lang: 'ja',
        title: 'クリックしてドキュメントを表示',
        button: 'ドキュメントを表示',
        note: '一度だけ使えるリンク',
      },
    };
    for (const [locale, words] of Object.entries(expected)) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      const answer = await page.goto(link.url);
      expect(answer!.headers()['vary']).toMatch(/Accept-Language/i);
      expect(await page.getAttribute('html', 'lang'), locale).toBe(words.lang);
      expect(await page.locator('h1').innerText(), locale).toBe(words.title);
      expect(await page.locator('main p').first().innerText(), locale).toContain(words.note);
      expect(await page.locator('button[type="submit"]').innerText(), locale).toBe(words.button);
      await context.close();
    }
    expect((await getShare(alice, link.share.id)).visitCount).toBe(0);
  });

  it('switches language on the page without using up the visit, and remembers the choice', async () => {
    const doc = await upload(app, alice, 'memo.md', '# Memo\n\nFor your eyes only.');
    const link = await share(alice, doc.fileId, { oneTime: true });
    const context = await browser.newContext({ locale: 'ja-JP' });
    const page = await context.newPage();
    await page.goto(link.url);
    expect(await page.locator('h1').innerText()).toBe('クリックしてドキュメントを表示');
    expect(await page.locator('nav.sd-lang [aria-current]').innerText()).toBe('日本語');

    await page.click('nav.sd-lang a[data-lang="fr"]');
    await page.waitForSelector('html[lang="fr"]');
    expect(new URL(page.url()).pathname).toBe(new URL(link.url).pathname);
    expect(await page.locator('h1').innerText()).toBe('Ouvrir le document');
    expect((await getShare(alice, link.share.id)).visitCount).toBe(0);

    // The choice outlives the page: a reload stays French although the browser still asks for Japanese.
    await page.reload();
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect((await getShare(alice, link.share.id)).visitCount).toBe(0);

    await page.click('button[type="submit"]');
    await page.waitForSelector('.sd-doc h1');
    expect(await page.textContent('.sd-doc h1')).toBe('Memo');
    expect(await page.locator('.sd-bar a').innerText()).toBe('Signaler');
    expect((await getShare(alice, link.share.id)).visitCount).toBe(1);

    await page.goto(link.url);
    expect(await page.locator('h1').innerText()).toBe('Lien épuisé');
    await context.close();
  });
});
