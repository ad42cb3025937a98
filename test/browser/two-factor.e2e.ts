import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { launchChromium } from '../support/browser.js';
import { ConsoleApp } from '../support/console-pages.js';

const PASSWORD = 'correct horse battery';

/** What an authenticator app shows `offsetSeconds` from now. */
function totp(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

describe('two-factor authentication in the console, in a real browser', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: ConsoleApp;
  let secret: string;
  let recoveryCodes: string[];
  const email = `twofactor${Date.now()}@example.com`;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    const index = await fetch(`${app.baseUrl}/account`);
    if (!(index.headers.get('content-type') ?? '').includes('text/html')) {
      throw new Error('the console is not built: run "pnpm --filter @sharedown/console build" first');
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    ui = new ConsoleApp(page, app.baseUrl);
  });

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await ui?.shot(`2fa-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  it('enrols from the Account page: QR code, key, code, then the recovery codes once', async () => {
    await ui.signUp(email, PASSWORD);
    await ui.nav('account');
    const panel = page.locator('[data-test="two-factor"]');
    expect(await panel.locator('[data-test="two-factor-state"]').innerText()).toBe('Off');
    await panel.locator('[data-test="two-factor-setup"]').click();
    await panel.locator('.qr svg').waitFor();
    secret = (await panel.locator('[data-test="totp-secret"]').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await ui.shot('2fa-enrol', true);

    await page.fill('#two-factor-code', await totp(secret));
    await panel.locator('[data-test="two-factor-form"] button[type="submit"]').click();
    const codes = panel.locator('[data-test="recovery-code"]');
    await codes.first().waitFor();
    recoveryCodes = await codes.allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    // The badge and the codes change in the same render (TwoFactorPanel.vue).
    expect(await panel.locator('[data-test="two-factor-state"]').innerText()).toBe('On');
    await ui.toast('Two-factor authentication is on.').waitFor();
    await ui.shot('2fa-recovery-codes', true);

    await panel.locator('[data-test="recovery-dismiss"]').click();
    await panel.locator('[data-test="codes-left"]').waitFor();
    expect(await panel.locator('[data-test="codes-left"]').innerText()).toBe('Recovery codes left: 10');
    // The sessions list names this browser.
    const current = page.locator('[data-test="sessions"] tr[data-current="true"]');
    expect(await current.innerText()).toContain('Chromium on Linux');
    expect(await current.innerText()).toContain('This browser');
  });

  it('signs in again with the code step', async () => {
    await page.click('[data-test="logout"]');
    await page.waitForURL('**/login**');
    await ui.logIn(email, PASSWORD);
    const input = page.locator('#login-code');
    await input.waitFor();
    expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-code');

    await input.fill('000000');
    await page.click('[data-test="login-code-form"] button[type="submit"]');
    await page.locator('#login-code-hint.field-error').waitFor();
    expect(await page.locator('#login-code-hint').innerText()).toBe('The code is not right, or it was used already.');
    await ui.shot('2fa-login-code');

    // The step after the one used to turn it on: that one is spent.
    await input.fill(await totp(secret, 30));
    await page.click('[data-test="login-code-form"] button[type="submit"]');
    await page.waitForURL('**/files');
    expect(await ui.heading().innerText()).toBe('Files');
  });

  it('signs in with a recovery code, then turns two-factor authentication off', async () => {
    await page.click('[data-test="logout"]');
    await page.waitForURL('**/login**');
    await ui.logIn(email, PASSWORD);
    await page.locator('#login-code').fill(recoveryCodes[0]!);
    await page.click('[data-test="login-code-form"] button[type="submit"]');
    await page.waitForURL('**/files');

    await ui.nav('account');
    const panel = page.locator('[data-test="two-factor"]');
    await panel.locator('[data-test="two-factor-disable"]').click();
    await page.fill('#two-factor-code', recoveryCodes[1]!);
    await panel.locator('[data-test="two-factor-form"] button[type="submit"]').click();
    await ui.toast('Two-factor authentication is off.').waitFor();
    expect(await panel.locator('[data-test="two-factor-state"]').innerText()).toBe('Off');
  });
});
