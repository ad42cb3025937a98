import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, consolePage, launchChromium, waitForScan } from '../support/browser.js';

/** A document request made in the console, answered in a browser by someone without an account, reviewed by its owner. */
describe('document requests in the console and on the public page', () => {
  let app: RunningApp;
  let browser: Browser;
  let alice: TestUser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    alice = await createUser(app.baseUrl);
    page = await consolePage(browser, app, alice.cookie);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(ARTIFACTS, `requests-${name}.png`), fullPage: true });

  it('creates a request with a live preview, collects an upload through the page, shows the receipt, and accepts it', async () => {
    await page.goto(`${app.baseUrl}/requests`);
    await page.fill('#request-title', 'Audit evidence 2026');
    await page.fill('#request-instructions', 'Please send the **signed** policy.');
    await page.fill('#request-max-uploads', '3');
    const preview = page.locator('[data-test="request-preview"]');
    await expect.poll(() => preview.innerText()).toContain('Audit evidence 2026');
    expect(await preview.innerText()).toContain('Up to 3 uploads');
    await shot(page, 'create');
    await page.click('[data-test="request-create"]');
    await page.waitForURL('**/requests/*');
    const url = (await page.locator('[data-test="request-url"]').innerText()).trim();
    expect(url).toMatch(new RegExp(`/r/${alice.segment}/`));
    expect(await page.locator('[data-test="share-qr"]').count()).toBe(1);
    await shot(page, 'detail-empty');

    // Someone without an account opens the link on a phone and uploads a file through the form.
    const uploader = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const publicPage = await uploader.newPage();
    await publicPage.goto(url);
    expect(await publicPage.locator('h1').innerText()).toBe('Audit evidence 2026');
    expect(await publicPage.locator('strong').first().innerText()).toBe('signed');
    expect(await publicPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(publicPage, 'public-form');
    await publicPage.setInputFiles('input[name="file"]', {
      name: 'policy.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Policy\n\nSigned.\n'),
    });
    await publicPage.fill('input[name="name"]', 'Olga Auditee');
    await publicPage.fill('textarea[name="message"]', 'The signed copy.');
    await Promise.all([publicPage.waitForURL('**/receipt/**'), publicPage.click('button[type="submit"]')]);
    expect(await publicPage.locator('dl').innerText()).toContain('policy.md');
    await shot(publicPage, 'receipt');
    await uploader.close();

    await page.reload();
    await page.waitForSelector('[data-test="request-uploads"] tbody tr');
    const row = page.locator('[data-test="request-uploads"] tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain('Olga Auditee');
    expect(await row.innerText()).toContain('awaiting review');
    const fileId = await row.locator('a').first().getAttribute('href');
    await waitForScan(alice, fileId!.split('/').pop()!, 'CLEAN');
    await page.click('[data-test="upload-accept"]');
    await expect.poll(() => row.innerText()).toContain('accepted');
    await shot(page, 'detail-accepted');

    // The file browser marks what came through a request.
    const requestId = new URL(page.url()).pathname.split('/').pop()!;
    const found = await fetch(`${app.baseUrl}/api/v1/requests/${requestId}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const { request } = (await found.json()) as { request: { folderId: string } };
    await page.goto(`${app.baseUrl}/files?folder=${request.folderId}`);
    expect(await page.locator('[data-file-name="policy.md"] [data-test="from-request"]').innerText()).toBe('from request');
    await shot(page, 'file-badge');

    await page.goto(`${app.baseUrl}/requests`);
    expect(await page.locator('[data-test="request-table"]').innerText()).toContain('1 of 3 received');
  });
});
