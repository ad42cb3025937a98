import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { consolePage, launchChromium } from '../support/browser.js';

const PASSWORD = 'correct horse battery';

describe('the Admin area in a browser', () => {
  let app: RunningApp;
  let browser: Browser;
  let root: TestUser;
  let adminPage: Page;
  const newPage = (cookie?: string): Promise<Page> => consolePage(browser, app, cookie);

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    root = await createUser(app.baseUrl);
    adminPage = await newPage(root.cookie);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  it('invites someone on an invite-only instance, then disables their account and signs them out', async () => {
    await adminPage.goto(`${app.baseUrl}/files`);
    await adminPage.click('[data-test="nav-admin"]');
    await adminPage.waitForURL('**/admin');
    await adminPage.waitForSelector('[data-test="admin-stats"] [data-stat="users"] dd');
    expect(await adminPage.locator('[data-test="admin-stats"] [data-stat="users"] dd').innerText()).toBe('1');

    await adminPage.check('[data-test="mode-invite"]');
    await adminPage.waitForSelector('text=Registration setting saved.');
    await adminPage.click('[data-test="invite-create"]');
    const link = await adminPage.locator('[data-test="secret-value"]').innerText();
    expect(link).toMatch(new RegExp(`^${app.baseUrl}/register\\?invite=`));

    // Without the link, the sign-up page says it is invitation-only.
    const stranger = await newPage();
    await stranger.goto(`${app.baseUrl}/register`);
    await stranger.waitForSelector('[data-test="register-refused"]');

    const guest = await newPage();
    const email = `guest-${Date.now()}@example.com`;
    await guest.goto(link);
    await guest.waitForSelector('[data-test="register-invited"]');
    await guest.fill('#register-email', email);
    await guest.fill('#register-password', PASSWORD);
    await guest.fill('#register-confirm', PASSWORD);
    await guest.click('[data-test="register-form"] button[type="submit"]');
    await guest.waitForURL('**/files');
    expect(await guest.locator('[data-test="nav-admin"]').count()).toBe(0);

    await adminPage.click('[data-test="admin-tab-users"]');
    await adminPage.fill('input[type="search"]', 'guest-');
    await adminPage.click(`text=${email}`);
    await adminPage.waitForURL('**/admin/users/*');
    await adminPage.click('[data-test="admin-user-disable"]');
    await adminPage.click('[data-test="confirm-accept"]');
    await adminPage.waitForFunction(
      () => document.querySelector('[data-test="admin-user-status"]')?.textContent?.trim() === 'Disabled',
    );

    // The guest's session ended: the next page load is the sign-in page, and signing in says why not.
    await guest.goto(`${app.baseUrl}/files`);
    await guest.waitForURL('**/login**');
    await guest.fill('input[type="email"]', email);
    await guest.fill('input[type="password"]', PASSWORD);
    await guest.click('form button[type="submit"]');
    await guest.waitForSelector('[data-test="login-disabled"]');
    expect(await guest.locator('[data-test="login-disabled"]').innerText()).toBe(
      'This account has been disabled by an administrator of this service.',
    );

    await adminPage.click('[data-test="admin-tab-audit"]');
    await adminPage.waitForSelector('[data-test="admin-audit-table"] tr[data-action="admin.user_disabled"]');
    const download = await adminPage.locator('[data-test="audit-download"]').getAttribute('href');
    const exported = await adminPage.request.get(`${app.baseUrl}${download}`);
    expect(exported.status()).toBe(200);
    const actions = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { action: string }).action);
    expect(actions).toEqual(
      expect.arrayContaining(['admin.user_disabled', 'admin.invite_created', 'admin.registration_changed']),
    );
  });
});
