import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, consolePage, getShare, launchChromium, share, upload } from '../support/browser.js';

describe('visitor insight and link editing in the console', () => {
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

  it('shows people and automation apart, with the visit table and its CSV', async () => {
    const doc = await upload(app, alice, 'insight.md', '# Insight\n\nbody');
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    await new HttpVisitor(app.baseUrl).get(path, { referer: 'https://news.example/a' });
    await new HttpVisitor(app.baseUrl, 'curl/8.5.0').get(path);
    const deadline = Date.now() + 10_000;
    while (
      (await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: created.id } } }))).visits.length < 2
    ) {
      if (Date.now() > deadline) throw new Error('visits were not logged');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.goto(`${app.baseUrl}/shares/${created.id}`);
    await page.click('[data-test="share-analytics"]');
    await page.waitForURL(`**/shares/${created.id}/analytics`);
    expect(await page.locator('[data-test="analytics-human"]').innerText()).toBe('1');
    expect(await page.locator('[data-test="analytics-automated"]').innerText()).toBe('1');
    expect(await page.locator('[data-test="chart-over-time"] canvas').count()).toBe(1);
    await page.waitForSelector('text=news.example');
    // The referrers panel names news.example too, and the visit table loads on its own: wait for its rows.
    await expect.poll(() => page.locator('[data-test="visits-table"] tbody tr').count()).toBe(2);
    await page.selectOption('[data-test="visits-kind"]', 'automated');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="visits-table"] tbody tr').length === 1);
    const csv = await page.locator('[data-test="visits-csv"]').getAttribute('href');
    const response = await page.request.get(`${app.baseUrl}${csv}`);
    expect(response.status()).toBe(200);
    expect((await response.text()).trim().split('\n')).toHaveLength(2);
  });

  it('edits a live link from its page', async () => {
    const doc = await upload(app, alice, 'edit.md', '# Edit\n\nbody');
    const { share: created } = await share(alice, doc.fileId);
    await page.goto(`${app.baseUrl}/shares/${created.id}`);
    await page.click('[data-test="share-edit-open"]');
    await page.fill('[data-test="edit-max-visits"]', '3');
    await page.check('input[type="radio"][value="set"]');
    await page.fill('[data-test="edit-password"]', 'sesame-1');
    await page.click('[data-test="edit-save"]');
    await page.waitForSelector('text=Link settings saved.');
    expect(await getShare(alice, created.id)).toMatchObject({ maxVisits: 3, hasPassword: true, token: created.token });
  });
});
