import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';
import { startApp, type RunningApp } from '../support/app.js';
import { HttpVisitor, launchChromium, sql } from '../support/browser.js';
import { ConsoleApp, type DocumentFile } from '../support/console-pages.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const PASSWORD = 'correct horse battery';
const REPORT_V1 = '# Quarterly report\n\nFirst draft.\n';
const REPORT_V2 = '# Quarterly report\n\nSecond draft, replaced.\n';
const NOTES: DocumentFile = { name: 'notes.txt', content: 'Plain notes.\nSecond line.\n' };
const PAGE: DocumentFile = {
  name: 'landing.html',
  content: '<!doctype html><html><head><title>Landing</title></head><body><h1>Hello</h1></body></html>',
};

describe('the console in a real browser', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ui: ConsoleApp;
  let email: string;
  let sessionClient: SharedownClient;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    const index = await fetch(`${app.baseUrl}/files`);
    if (!(index.headers.get('content-type') ?? '').includes('text/html')) {
      throw new Error('the console is not built: run "pnpm --filter @sharedown/console build" first');
    }
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    ui = new ConsoleApp(page, app.baseUrl);
    email = `console${Date.now()}@example.com`;
  });

  afterEach(async (context) => {
    // A failed step leaves a picture of the page behind, to see what the user would have seen.
    if (context.task.result?.state === 'fail') await ui?.shot(`failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  /** The browser's own session, for seeding data through the console API. */
  async function asBrowser(): Promise<SharedownClient> {
    const cookie = (await context.cookies(app.baseUrl)).find((item) => item.name === 'sharedown_session');
    return createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie: `sharedown_session=${cookie!.value}` } });
  }

  async function fileId(name: string): Promise<string> {
    const found = await unwrap(sessionClient.GET('/api/console/files', { params: { query: { q: name } } }));
    return found.files.find((file) => file.name === name)!.id;
  }

  it('signs up and lands on an empty file list', async () => {
    await ui.goto('/files');
    await page.waitForURL('**/login?redirect=/files');
    await ui.shot('login');
    await ui.signUp(email, PASSWORD);
    expect(await ui.heading().innerText()).toBe('Files');
    await page.waitForSelector('text=Nothing here yet');
    sessionClient = await asBrowser();
    await ui.shot('files-empty');
  });

  it('uploads by picker and by drag and drop, and scan badges turn clean without a reload', async () => {
    const files = ui.files();
    await files.uploadWithPicker([{ name: 'report.md', content: REPORT_V1 }, NOTES]);
    await files.drop([PAGE]);
    for (const name of ['report.md', NOTES.name, PAGE.name]) {
      await expect.poll(() => files.uploadStatus(name), { timeout: 15_000 }).toBe('done');
      expect(await files.upload(name).locator('[role="progressbar"]').getAttribute('aria-valuenow')).toBe('100');
    }
    for (const name of ['report.md', NOTES.name, PAGE.name]) {
      await expect.poll(() => files.scanStatus(name), { timeout: 20_000 }).toBe('CLEAN');
    }
    // The storage bar follows the uploads.
    await expect.poll(() => page.locator('.sidebar-footer').innerText(), { timeout: 10_000 }).not.toContain('0 B of');
    await ui.shot('files');
  });

  it('asks what to do with a name conflict: keep both, replace, or skip', async () => {
    const files = ui.files();
    await files.uploadWithPicker([{ name: 'report.md', content: REPORT_V2 }]);
    await files.conflictDialog().waitFor();
    expect(await files.conflictDialog().innerText()).toContain('The folder already has a file named “report.md”.');
    await ui.shot('conflict-dialog');
    await files.resolveConflict('rename');
    await files.row('report (1).md').waitFor({ timeout: 15_000 });

    await files.uploadWithPicker([{ name: 'report.md', content: REPORT_V2 }]);
    await files.conflictDialog().waitFor();
    await files.resolveConflict('overwrite');
    await expect.poll(() => files.row('report.md').locator('.version').innerText(), { timeout: 15_000 }).toBe('v2');

    await files.uploadWithPicker([{ name: 'report.md', content: 'ignored' }]);
    await files.conflictDialog().waitFor();
    await files.resolveConflict('cancel');
    await expect.poll(() => files.uploadStatus('report.md'), { timeout: 10_000 }).toBe('skipped');
    expect(await files.row('report.md').locator('.version').innerText()).toBe('v2');
  });

  it('previews a file, lists its versions, restores an old one and takes a new one', async () => {
    const files = ui.files();
    await expect.poll(() => files.scanStatus('report.md'), { timeout: 20_000 }).toBe('CLEAN');
    await files.open('report.md');
    // Markdown is shown rendered, in a frame that runs no scripts.
    const frame = page.frameLocator('[data-test="preview-frame"]');
    await frame.locator('h1', { hasText: 'Quarterly report' }).waitFor();
    expect(await frame.locator('p').innerText()).toBe('Second draft, replaced.');
    expect(await page.getAttribute('[data-test="preview-frame"]', 'sandbox')).toBe('');
    const versions = page.locator('[data-test="versions-panel"] li[data-version]');
    await expect.poll(() => versions.count(), { timeout: 10_000 }).toBe(2);
    await ui.shot('file-detail');
    await page.click('[data-test="preview-source"]');
    await page.waitForSelector('.code >> text=Second draft, replaced.');

    await page.click('[data-test="restore-v1"]');
    await ui.confirm();
    await expect.poll(() => versions.count(), { timeout: 10_000 }).toBe(3);
    await page.waitForSelector('.code >> text=First draft.');
    expect(await page.locator('[data-version="3"] .badge-accent').innerText()).toBe('current');

    await page.setInputFiles('[data-test="version-input"]', {
      name: 'report-v4.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(REPORT_V1 + '\nFourth.\n'),
    });
    await expect.poll(() => versions.count(), { timeout: 15_000 }).toBe(4);
    await page.waitForSelector('[data-version="4"] .badge-accent');
  });

  it('shares with a password and a visit cap, a second browser opens it, counts update, then it is revoked', async () => {
    await expect
      .poll(() => page.locator('main h1 [data-scan-status]').getAttribute('data-scan-status'), { timeout: 20_000 })
      .toBe('CLEAN');
    await page.click('[data-test="file-share"]');
    await page.waitForURL('**/shares/new?fileId=*');
    const form = ui.shareForm();
    await form.setPassword('swordfish');
    await form.setMaxVisits(3);
    const summary = await form.summary();
    expect(summary).toContain('They are asked for the password.');
    expect(summary).toContain('It is used up after 3 views in total.');
    await ui.shot('share-form', true);
    await form.submit();
    const url = await form.createdUrl();
    expect(url).toMatch(new RegExp(`^${app.baseUrl}/s/[a-z0-9_-]+/[A-Za-z0-9_-]{16,}$`));
    expect(await page.locator('[data-test="share-qr"] svg').count()).toBe(1);
    await page.click('[data-test="share-created"] button:has-text("Copy link")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await ui.shot('share-created');

    // Watch the list while someone else visits: the counts must move without a reload.
    await ui.nav('shares');
    const row = page.locator('[data-test="share-table"] tbody tr').first();
    await expect.poll(() => row.locator('[data-test="visit-count"]').innerText(), { timeout: 10_000 }).toBe('0 / 3');

    const visitorContext = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const visitor = await visitorContext.newPage();
    const gate = await visitor.goto(url);
    expect(gate!.status()).toBe(401);
    await visitor.fill('input[name="password"]', 'swordfish');
    await visitor.click('button[type="submit"]');
    await visitor.waitForSelector('.sd-doc h1');

    await expect.poll(() => row.locator('[data-test="visit-count"]').innerText(), { timeout: 15_000 }).toBe('1 / 3');
    expect(await row.locator('[data-test="unique-count"]').innerText()).toBe('1');
    await ui.shot('shares');

    await row.locator('a').first().click();
    await page.waitForURL('**/shares/*');
    await expect.poll(() => page.locator('[data-test="detail-visits"]').innerText(), { timeout: 10_000 }).toBe('1');
    const bars = await page
      .locator('.chart rect')
      .evaluateAll((rects) => rects.filter((rect) => Number(rect.getAttribute('height')) > 0).length);
    expect(bars).toBe(1);
    await ui.shot('share-detail', true);

    await page.click('[data-test="share-revoke"]');
    await ui.confirm();
    await page.waitForSelector('main h1 [data-share-status="revoked"]');
    const gone = await visitor.goto(url);
    expect(gone!.status()).toBe(410);
    await visitorContext.close();
  });

  it('creates a folder and moves a file into it', async () => {
    await ui.nav('files');
    const files = ui.files();
    await page.click('[data-test="new-folder"]');
    await page.fill('#folder-name', 'Archive');
    await page.keyboard.press('Enter');
    const folderLink = page.locator('.tree [data-folder-name="Archive"]');
    await folderLink.waitFor();
    await files.row(PAGE.name).locator(`button[aria-label="Move ${PAGE.name}"]`).click();
    await page.locator('[data-test="move-target"] label', { hasText: 'Archive' }).click();
    await page.click('[data-test="move-confirm"]');
    await files.row(PAGE.name).waitFor({ state: 'detached' });
    await folderLink.click();
    await files.row(PAGE.name).waitFor();
    expect(await ui.heading().innerText()).toBe('Archive');
    await ui.shot('folder');
  });

  it('creates an API token, shows it once, and it works against the REST API until revoked', async () => {
    await ui.nav('tokens');
    await page.fill('#token-name', 'deploy-bot');
    await page.fill('#token-rate', '30');
    await page.click('[data-test="token-form"] button[type="submit"]');
    const plaintext = (await page.locator('[data-test="secret-value"]').innerText()).trim();
    expect(plaintext).toMatch(/^shd_[A-Za-z0-9]+_[A-Za-z0-9_-]+$/);
    await ui.shot('tokens');
    const me = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(email);

    await page.reload();
    await page.waitForSelector('[data-test="token-table"]');
    expect(await page.locator('[data-test="secret-value"]').count()).toBe(0);
    const tokenRow = page.locator('[data-test="token-table"] tbody tr', { hasText: 'deploy-bot' });
    expect(await tokenRow.innerText()).toContain('30/min');
    await tokenRow.locator('button:has-text("Revoke")').click();
    await ui.confirm();
    await tokenRow.locator('.badge-danger').waitFor();
    const after = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } });
    expect(after.status).toBe(401);
  });

  it('creates a webhook with a one-time secret, and a share visit shows up as a delivery', async () => {
    const receiver = await new WebhookReceiver(() => ({ status: 200, body: 'thanks' })).start();
    try {
      await ui.nav('webhooks');
      await page.fill('#webhook-url', receiver.url('/hook'));
      await page.click('[data-test="webhook-form"] button[type="submit"]');
      const secret = (await page.locator('[data-test="secret-value"]').innerText()).trim();
      expect(secret.length).toBeGreaterThanOrEqual(43);
      await ui.shot('webhooks');

      const created = await unwrap(sessionClient.POST('/api/console/shares', { body: { fileId: await fileId(NOTES.name) } }));
      const visit = await new HttpVisitor(app.baseUrl).open(created.url);
      expect(visit.status).toBe(200);
      await receiver.waitFor(1, { path: '/hook' });

      await page.locator('[data-test="webhook-table"] a').first().click();
      await page.waitForURL('**/webhooks/*');
      const delivery = page.locator('[data-test="delivery-table"] tbody tr[data-delivery-status]').first();
      await delivery.waitFor({ timeout: 15_000 });
      expect(await delivery.getAttribute('data-delivery-status')).toBe('success');
      expect(await delivery.locator('[data-test="response-code"]').innerText()).toBe('200');
      await ui.shot('webhook-deliveries');

      await ui.nav('webhooks');
      await page.click('[data-test="webhook-pause"]');
      await page.waitForSelector('[data-test="webhook-table"] .badge-warning');
      await page.click('[data-test="webhook-resume"]');
      await page.waitForSelector('[data-test="webhook-table"] .badge-success');

      // A second hook, deleted again: only the first one stays.
      await page.fill('#webhook-url', receiver.url('/other'));
      await page.click('[data-test="webhook-form"] button[type="submit"]');
      const rows = page.locator('[data-test="webhook-table"] tbody tr[data-webhook-id]');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      await rows.filter({ hasText: '/other' }).locator('button:has-text("Delete")').click();
      await ui.confirm();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      expect((await unwrap(sessionClient.GET('/api/webhooks'))).webhooks.map((hook) => hook.url)).toEqual([
        receiver.url('/hook'),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('moves files to the trash, restores one and purges another, freeing its storage', async () => {
    await ui.nav('files');
    const files = ui.files();
    await files.row(NOTES.name).waitFor();
    await files.trash(NOTES.name);
    await files.row(NOTES.name).waitFor({ state: 'detached' });
    await files.trash('report (1).md');
    await files.row('report (1).md').waitFor({ state: 'detached' });
    await ui.nav('trash');
    const trashed = (name: string) => page.locator(`[data-test="trash-table"] tr[data-trash-name="${name}"]`);
    await trashed(NOTES.name).waitFor();
    await ui.shot('trash');
    await trashed(NOTES.name).locator('[data-test="trash-restore"]').click();
    await trashed(NOTES.name).waitFor({ state: 'detached' });

    const usedBefore = (await unwrap(sessionClient.GET('/api/auth/session'))).user.usedBytes;
    await trashed('report (1).md').locator('[data-test="trash-purge"]').click();
    await ui.confirm();
    await trashed('report (1).md').waitFor({ state: 'detached' });
    const usedAfter = (await unwrap(sessionClient.GET('/api/auth/session'))).user.usedBytes;
    expect(usedBefore - usedAfter).toBe(Buffer.byteLength(REPORT_V2));
    await expect.poll(() => page.locator('.sidebar-footer').innerText(), { timeout: 10_000 }).toContain(`${usedAfter} B of`);

    await ui.nav('files');
    await files.row(NOTES.name).waitFor();
  });

  it('validates pasted content, locates its issues and copies the normalized text', async () => {
    await ui.nav('validate');
    await page.fill('[data-test="validate-content"]', '# Title   \n\nSee [the spec][missing].\n\n```js\nconst open = true;\n');
    await page.click('[data-test="validate-run"]');
    await page.waitForSelector('[data-test="validate-not-ok"]');
    const issues = page.locator('[data-test="validate-result"] .issue');
    expect(await issues.count()).toBeGreaterThanOrEqual(2);
    await issues.first().click();
    expect(await page.locator('.code-line.active').count()).toBe(1);
    await page.click('button:has-text("Copy result")');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.startsWith('# Title\n')).toBe(true);
    await ui.shot('validate', true);
  });

  it('changes the owner segment on the account page', async () => {
    await ui.nav('account');
    const segment = `docs-${Date.now().toString(36)}`;
    await page.fill('#account-segment-input', segment);
    await page.click('[data-test="segment-form"] button[type="submit"]');
    await ui.toast('Owner segment saved.').waitFor();
    const session = await unwrap(sessionClient.GET('/api/auth/session'));
    expect(session.user.segment).toBe(segment);
    await ui.shot('account');
  });

  it('signs a visitor in through the console and returns them to a link that requires login', async () => {
    const created = await unwrap(
      sessionClient.POST('/api/console/shares', { body: { fileId: await fileId(NOTES.name), requireLogin: true } }),
    );
    const visitorContext = await browser.newContext({ viewport: { width: 1000, height: 700 }, locale: 'en-US' });
    try {
      const visitor = await visitorContext.newPage();
      await visitor.goto(created.url);
      await visitor.click('a[href*="/login?redirect="]');
      await visitor.waitForURL('**/login?redirect=*');
      const consoleUi = new ConsoleApp(visitor, app.baseUrl);
      await consoleUi.logIn(email, PASSWORD);
      await visitor.waitForURL(created.url);
      await visitor.waitForSelector('.sd-doc');
      expect(await visitor.locator('.sd-doc').innerText()).toContain('Plain notes.');
    } finally {
      await visitorContext.close();
    }
  });

  it('sends an expired session to the login page and back to where the user was', async () => {
    await ui.goto('/webhooks');
    await page.waitForSelector('[data-test="webhook-table"]');
    await sql(app, 'DELETE FROM sessions');
    await ui.nav('tokens');
    await page.waitForURL('**/login?redirect=/tokens');
    await page.waitForSelector('text=Your session has ended.');
    await ui.shot('session-expired');
    await ui.logIn(email, PASSWORD);
    await page.waitForURL('**/tokens');
    await page.waitForSelector('[data-test="token-table"]');
    sessionClient = await asBrowser();
  });

  it('speaks Chinese, has a dark theme, and is keyboard accessible', async () => {
    await ui.goto('/files');
    expect(await page.locator('[data-test="locale-switch"] option').allInnerTexts()).toEqual([
      '中文',
      'English',
      '日本語',
      'Deutsch',
      'Français',
      'Español',
    ]);
    await page.selectOption('[data-test="locale-switch"]', 'de');
    await page.waitForSelector('[data-test="nav-files"] >> text=Dateien');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.selectOption('[data-test="locale-switch"]', 'zh');
    await page.waitForSelector('[data-test="nav-files"] >> text=文件');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await ui.shot('files-zh');
    // The choice is remembered by this browser.
    await page.reload();
    await page.waitForSelector('[data-test="nav-files"] >> text=文件');

    await page.click('[data-test="theme-toggle"]');
    await page.click('[data-test="theme-toggle"]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await ui.shot('files-zh-dark');
    await page.selectOption('[data-test="locale-switch"]', 'en');
    await ui.nav('shares');
    await page.locator('[data-test="share-table"] tbody tr a').first().click();
    await page.waitForSelector('.chart');
    await ui.shot('share-detail-dark', true);

    // The first Tab reaches the skip link, which moves focus to the page content.
    await ui.goto('/files');
    await page.waitForSelector('[data-test="file-table"]');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('skip-link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // Dialogs are reachable and dismissable from the keyboard.
    await page.focus('[data-test="new-folder"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open] #folder-name');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('folder-name');
    await page.keyboard.type('Keyboard folder');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-folder-name="Keyboard folder"]');
    expect(await page.locator('dialog[open]').count()).toBe(0);
  });

  it('fits a phone screen', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
      storageState: await context.storageState(),
    });
    try {
      const mobile = new ConsoleApp(await phone.newPage(), app.baseUrl);
      await mobile.goto('/files');
      await mobile.page.waitForSelector('[data-test="file-table"]');
      const overflow = await mobile.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await mobile.shot('phone-files', true);
      await mobile.page.click('.menu-button');
      await mobile.page.waitForSelector('.nav-open .sidebar');
      await mobile.shot('phone-menu');
      await mobile.page.click('[data-test="nav-shares"]');
      await mobile.page.waitForSelector('[data-test="share-table"]');
      await mobile.shot('phone-shares', true);
      await mobile.goto('/shares/new');
      await mobile.page.waitForSelector('text=Choose a file');
      await mobile.page.locator('.pick').first().click();
      await mobile.page.waitForSelector('[data-test="share-form"]');
      const formOverflow = await mobile.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(formOverflow).toBeLessThanOrEqual(0);
      await mobile.shot('phone-share-form', true);
    } finally {
      await phone.close();
    }
  });
});
