import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, HttpVisitor, consolePage, getShare, launchChromium, share, upload } from '../support/browser.js';

describe('notifications in the console', () => {
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

  it('shows the unread count on the bell, lists the visit, marks all read, and edits the choice', async () => {
    const doc = await upload(app, alice, 'notes.md', '# Notes\n\nbody');
    const { share: created, url } = await share(alice, doc.fileId, { notify: 'every' });
    await new HttpVisitor(app.baseUrl).get(new URL(url).pathname, { referer: 'https://chat.example/room' });
    const deadline = Date.now() + 10_000;
    while ((await unwrap(alice.console.GET('/api/notifications', { params: { query: {} } }))).unreadCount < 1) {
      if (Date.now() > deadline) throw new Error('no notification');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    await page.goto(`${app.baseUrl}/files`);
    const bell = page.locator('[data-test="notification-bell"]');
    await expect.poll(() => page.locator('[data-test="notification-count"]').innerText()).toBe('1');
    expect(await bell.getAttribute('aria-label')).toBe('Notifications: 1 unread');
    await bell.click();
    const item = page.locator('[data-test="notification-item"]');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.innerText()).toContain('Visit 1 to notes.md');
    expect(await item.innerText()).toContain('from https://chat.example/room');
    await page.screenshot({ path: join(ARTIFACTS, 'console-notifications.png') });
    await page.click('[data-test="notification-read-all"]');
    await expect.poll(() => page.locator('[data-test="notification-count"]').count()).toBe(0);

    await item.locator('a').click();
    await page.waitForURL(`**/shares/${created.id}`);
    await expect.poll(() => page.locator('.policies').innerText()).toContain('You are told about every visit.');
    await page.click('[data-test="share-edit-open"]');
    await page.selectOption('[data-test="edit-notify"]', 'daily');
    await page.click('[data-test="edit-save"]');
    await expect.poll(() => page.locator('.policies').innerText()).toContain('You get a daily digest of the visits.');
    expect((await getShare(alice, created.id)).notify).toBe('daily');
  });
});
