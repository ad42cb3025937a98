import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, consolePage, launchChromium, upload } from '../support/browser.js';
import { ConsoleApp } from '../support/console-pages.js';
import { axeViolations, sidewaysOverflow } from '../support/page-audit.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/**
 * A shared workspace made in the console: an invitation accepted by a second account in its own
 * browser, who then sees the workspace's files; and two tabs of one browser in two workspaces,
 * each listing its own files and naming its own workspace on every call. Alice, the instance's first
 * account, administers it: the Admin area lists the workspace and sets its quota.
 */
describe('workspaces in the console', () => {
  let app: RunningApp;
  let browser: Browser;
  let alice: TestUser;
  let bob: TestUser;
  let page: Page;
  let ui: ConsoleApp;
  let bobContext: BrowserContext;
  let bobPage: Page;
  let workspaceId = '';
  let invitationPath = '';

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    // One after the other: the first account of the instance (Alice) is its administrator.
    alice = await createUser(app.baseUrl);
    bob = await createUser(app.baseUrl);
    // A document of Alice's personal workspace, which the shared one must not list.
    await upload(app, alice, 'alice-personal.md', '# Mine\n');
    page = await consolePage(browser, app, alice.cookie);
    ui = new ConsoleApp(page, app.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  const shot = async (target: Page, name: string) => {
    // From the top, so the sticky bars are drawn where a user sees them.
    await target.evaluate(() => window.scrollTo(0, 0));
    await target.waitForTimeout(250);
    await target.screenshot({ path: join(ARTIFACTS, `workspaces-${name}.png`), fullPage: true });
  };
  const fileNames = (target: Page) =>
    target
      .locator('[data-test="file-table"] tr[data-file-name]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-file-name')));
  /** A page that passes the accessibility walk's checks: no WCAG 2.1 A/AA violation, nothing sideways. */
  const audited = async (target: Page) => {
    expect(await axeViolations(target)).toEqual([]);
    expect(await sidewaysOverflow(target)).toBe(0);
  };

  it('creates a shared workspace from the switcher, lands on its members, and invites Bob with a link to copy', async () => {
    await ui.goto('/files');
    await page.locator('[data-test="file-table"] tr[data-file-name="alice-personal.md"]').waitFor();
    await expect.poll(() => page.locator('[data-test="workspace-name"]').innerText()).toBe('Personal');
    await page.click('[data-test="workspace-current"]');
    expect(await page.locator('[data-test="workspace-option"]').allInnerTexts()).toEqual(['Personal']);
    await shot(page, 'switcher-open');
    await page.click('[data-test="workspace-new"]');
    await page.fill('#workspace-name', 'Sales EMEA');
    expect(await page.inputValue('#workspace-segment')).toBe('sales-emea');
    await shot(page, 'create-dialog');
    await page.click('[data-test="workspace-create"]');
    await page.waitForURL('**/workspace/members');
    await page.locator('[data-test="member-table"]').waitFor();
    await expect.poll(() => page.locator('[data-test="workspace-name"]').innerText()).toBe('Sales EMEA');
    workspaceId = (await page.evaluate(() => sessionStorage.getItem('sharedown.workspace'))) ?? '';
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.locator('[data-test="member-count"]').innerText()).toBe('1 member');

    await page.fill('#invite-email', bob.email);
    await page.selectOption('[data-test="invite-role"]', 'EDITOR');
    await page.click('[data-test="invite-submit"]');
    const link = (await page.locator('[data-test="invite-link"] [data-test="secret-value"]').innerText()).trim();
    const url = new URL(link);
    expect(url.origin).toBe(app.baseUrl);
    expect(url.pathname).toMatch(/^\/invitations\/[A-Za-z0-9_-]+$/);
    invitationPath = url.pathname;
    await page.locator(`[data-test="invitation-table"] tr[data-invitation-email="${bob.email}"]`).waitFor();
    await audited(page);
    await shot(page, 'members-owner');

    await page.setViewportSize(PHONE);
    try {
      await shot(page, 'members-owner-phone');
      await audited(page);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('uploads into the workspace and makes a link there, both marked with who made them', async () => {
    await ui.goto('/files');
    await ui.files().uploadWithPicker([{ name: 'sales-deck.md', content: '# Deck\n\nQ3 numbers.\n' }]);
    await expect.poll(() => ui.files().scanStatus('sales-deck.md'), { timeout: 20_000 }).toBe('CLEAN');
    // The workspace lists its own documents only: Alice's personal one is not here.
    expect(await fileNames(page)).toEqual(['sales-deck.md']);
    expect(await ui.files().row('sales-deck.md').locator('[data-test="created-by"]').innerText()).toBe(
      `Created by ${alice.email}`,
    );
    await shot(page, 'files-created-by');
    await audited(page);

    await ui.files().row('sales-deck.md').locator('[data-test="share-sales-deck.md"]').click();
    await page.waitForURL('**/shares/new?fileId=*');
    await ui.shareForm().submit();
    const shareUrl = await ui.shareForm().createdUrl();
    // The link carries the workspace's own segment.
    expect(shareUrl).toContain('/s/sales-emea/');
    await ui.goto('/shares');
    await page.locator('[data-test="created-by"]').first().waitFor();
    expect(await page.locator('[data-test="created-by"]').first().innerText()).toBe(`Created by ${alice.email}`);
    await audited(page);
    await shot(page, 'shares-created-by');
  });

  it('Bob signs in through the invitation link in his own browser, accepts, and sees the workspace’s files', async () => {
    bobContext = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    bobPage = await bobContext.newPage();
    await bobPage.goto(`${app.baseUrl}${invitationPath}`);
    // Not signed in: the login flow, which comes back to the invitation.
    await bobPage.waitForURL(`**/login?redirect=${invitationPath}`);
    const bobUi = new ConsoleApp(bobPage, app.baseUrl);
    await bobUi.logIn(bob.email, bob.password);
    await bobPage.waitForURL(`**${invitationPath}`);
    await bobPage.locator('[data-test="invitation"]').waitFor();
    expect(await bobPage.locator('main h1').innerText()).toBe('Join “Sales EMEA”');
    expect(await bobPage.locator('[data-test="invitation"]').innerText()).toContain(
      `You are invited as Editor, for the address ${bob.email}.`,
    );
    await audited(bobPage);
    await shot(bobPage, 'invitation-phone');

    await bobPage.click('[data-test="invitation-accept"]');
    await bobPage.waitForURL('**/files');
    await bobPage.locator('[data-test="file-table"] tr[data-file-name="sales-deck.md"]').waitFor();
    expect(await fileNames(bobPage)).toEqual(['sales-deck.md']);
    await expect.poll(() => bobPage.locator('[data-test="workspace-name"]').textContent()).toBe('Sales EMEA');
    expect(await sidewaysOverflow(bobPage)).toBe(0);
    await shot(bobPage, 'bob-files-phone');

    // The link worked once.
    await bobPage.goto(`${app.baseUrl}${invitationPath}`);
    await bobPage.locator('[data-test="invitation-gone"]').waitFor();

    // As an editor, Bob reads the members but manages none of them.
    await bobPage.goto(`${app.baseUrl}/workspace/members`);
    await bobPage.locator('[data-test="member-table"]').waitFor();
    expect(await bobPage.locator('[data-test="member-count"]').innerText()).toBe('2 members');
    expect(await bobPage.locator('[data-test="editor-note"]').count()).toBe(1);
    expect(await bobPage.locator('[data-test="member-role"]').count()).toBe(0);
    expect(await bobPage.locator('[data-test="invite-form"]').count()).toBe(0);
    await audited(bobPage);
    await shot(bobPage, 'members-editor-phone');
  });

  it('two tabs of one browser in two workspaces each list their own files and name their own workspace', async () => {
    const workspaceTab = page;
    const personalTab = await page.context().newPage();
    const headerOf = (request: Request) => request.headers()['x-sharedown-workspace'] ?? null;

    const [personalCall] = await Promise.all([
      personalTab.waitForRequest((request) => new URL(request.url()).pathname === '/api/console/files'),
      personalTab.goto(`${app.baseUrl}/files`),
    ]);
    await personalTab.locator('[data-test="file-table"] tr[data-file-name]').first().waitFor();
    expect(headerOf(personalCall)).toBeNull();
    expect(await fileNames(personalTab)).toEqual(['alice-personal.md']);
    await expect.poll(() => personalTab.locator('[data-test="workspace-name"]').innerText()).toBe('Personal');

    // The first tab, loaded again after the second one opened, is still in the shared workspace.
    const [workspaceCall] = await Promise.all([
      workspaceTab.waitForRequest((request) => new URL(request.url()).pathname === '/api/console/files'),
      workspaceTab.goto(`${app.baseUrl}/files`),
    ]);
    await workspaceTab.locator('[data-test="file-table"] tr[data-file-name]').first().waitFor();
    expect(headerOf(workspaceCall)).toBe(workspaceId);
    expect(await fileNames(workspaceTab)).toEqual(['sales-deck.md']);
    await expect.poll(() => workspaceTab.locator('[data-test="workspace-name"]').innerText()).toBe('Sales EMEA');
    await shot(workspaceTab, 'tab-workspace');
    await shot(personalTab, 'tab-personal');

    // An upload in the personal tab lands in the personal workspace, not in the other tab's.
    await new ConsoleApp(personalTab, app.baseUrl).files().uploadWithPicker([{ name: 'personal-2.md', content: 'two' }]);
    await personalTab.locator('[data-test="file-table"] tr[data-file-name="personal-2.md"]').waitFor({ timeout: 15_000 });
    await workspaceTab.reload();
    await workspaceTab.locator('[data-test="file-table"] tr[data-file-name]').first().waitFor();
    expect(await fileNames(workspaceTab)).toEqual(['sales-deck.md']);
    await personalTab.close();
  });

  it('Bob makes a link as an editor; the workspace’s activity names who acted and narrows to one member', async () => {
    const bobUi = new ConsoleApp(bobPage, app.baseUrl);
    await bobUi.goto('/files');
    await bobUi.files().row('sales-deck.md').locator('[data-test="share-sales-deck.md"]').click();
    await bobPage.waitForURL('**/shares/new?fileId=*');
    await bobUi.shareForm().submit();
    await bobUi.shareForm().createdUrl();

    await ui.goto('/activity');
    const filter = page.locator('[data-test="activity-actor-filter"]');
    await filter.locator('option', { hasText: bob.email }).waitFor({ state: 'attached' });
    expect(await filter.locator('option').allInnerTexts()).toEqual(expect.arrayContaining(['Everyone', alice.email, bob.email]));
    const actors = () => page.locator('[data-test="activity-table"] [data-test="activity-actor"]').allInnerTexts();
    await expect.poll(actors).toContain(alice.email);
    expect(await actors()).toContain(bob.email);

    const [asked] = await Promise.all([
      page.waitForRequest((request) => new URL(request.url()).pathname === '/api/audit'),
      filter.selectOption({ label: bob.email }),
    ]);
    expect(new URL(asked.url()).searchParams.get('actor')).toBe(bob.userId);
    await expect.poll(async () => [...new Set(await actors())]).toEqual([bob.email]);
    const actions = await page
      .locator('[data-test="activity-table"] tr[data-action]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
    expect(actions).toContain('share.created');
    await audited(page);
    await shot(page, 'activity-by-member');
    await page.setViewportSize(PHONE);
    try {
      await audited(page);
      await shot(page, 'activity-by-member-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }

    await filter.selectOption({ label: 'Everyone' });
    await expect.poll(actors).toContain(alice.email);
  });

  it('an owner changes a role; deleting a workspace that holds files says why not', async () => {
    await ui.goto('/workspace/members');
    const bobRow = page.locator(`[data-test="member-table"] tr[data-member-email="${bob.email}"]`);
    await bobRow.waitFor();
    await bobRow.locator('[data-test="member-role"]').selectOption('VIEWER');
    await ui.toast(`${bob.email} is now: Viewer.`).waitFor();

    await bobPage.goto(`${app.baseUrl}/workspace/members`);
    await bobPage.locator('[data-test="viewer-note"]').waitFor();
    expect(await bobPage.locator('[data-test="member-leave"]').count()).toBe(1);

    await page.click('[data-test="workspace-delete"]');
    await ui.confirm();
    const refusal = page.locator('[data-test="workspace-delete-error"]');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('This workspace still holds files');
    await audited(page);
    await shot(page, 'delete-refused');
  });

  it('a VIEWER reads the workspace but is offered nothing that writes', async () => {
    const bobUi = new ConsoleApp(bobPage, app.baseUrl);
    await bobUi.goto('/files');
    await bobPage.locator('[data-test="file-table"] tr[data-file-name="sales-deck.md"]').waitFor();
    await bobPage.locator('[data-test="viewer-badge"]').waitFor();
    for (const hook of ['upload-button', 'upload-input', 'new-folder', 'share-sales-deck.md'])
      expect(await bobPage.locator(`[data-test="${hook}"]`).count(), hook).toBe(0);
    expect(await bobUi.files().row('sales-deck.md').locator('button').count()).toBe(0);
    await audited(bobPage);
    await shot(bobPage, 'viewer-files-phone');

    await bobUi.goto('/shares');
    await bobPage.locator('[data-test="share-table"] tr[data-share-id]').first().waitFor();
    expect(await bobPage.locator('[data-test="share-revoke"]').count()).toBe(0);
    expect(await bobPage.locator('main a[href^="/shares/new"]').count()).toBe(0);

    await bobUi.goto('/requests');
    await bobPage.locator('main h1').waitFor();
    expect(await bobPage.locator('#request-create-title').count()).toBe(0);

    await bobUi.goto('/webhooks');
    await bobPage.locator('[data-test="webhooks-manager-note"]').waitFor();
    await bobUi.goto('/tokens');
    await bobPage.locator('[data-test="tokens-viewer-note"]').waitFor();
    await audited(bobPage);
    await bobContext.close();
  });

  it('the Admin area lists the workspace with its owners and members, and sets its quota', async () => {
    await ui.goto('/admin');
    await page.click('[data-test="admin-tab-workspaces"]');
    await page.waitForURL('**/admin/workspaces');
    const row = page.locator(`[data-test="admin-workspace-table"] tr[data-workspace-id="${workspaceId}"]`);
    await row.waitFor();
    expect(await row.locator('[data-test="admin-workspace-name"]').innerText()).toBe('Sales EMEA');
    expect(await row.locator('[data-test="admin-workspace-owners"]').innerText()).toBe(alice.email);
    expect(await row.locator('[data-test="admin-workspace-members"]').innerText()).toBe('2 members');
    // Searching by segment finds it; a word that is in no name finds nothing.
    await page.fill('main input[type="search"]', 'sales-em');
    await expect.poll(() => page.locator('[data-test="admin-workspace-table"] tr[data-workspace-id]').count()).toBe(1);
    await page.fill('main input[type="search"]', 'no-such-workspace');
    await page.locator('[data-test="admin-workspaces-empty"]').waitFor();
    await page.fill('main input[type="search"]', '');
    await row.waitFor();
    await audited(page);
    await shot(page, 'admin-workspaces');

    const opener = row.locator('[data-test="admin-workspace-quota"]');
    await opener.click();
    const form = page.locator('dialog[open] [data-test="admin-workspace-quota-form"]');
    await form.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('workspace-quota');
    // A mistake is said beside the field, and the focus stays there.
    await page.fill('#workspace-quota', '-5');
    await page.click('[data-test="admin-workspace-quota-save"]');
    const mistake = form.locator('[data-test="quota-error"]');
    await mistake.waitFor();
    expect(await mistake.getAttribute('role')).toBe('alert');
    expect(await page.getAttribute('#workspace-quota', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('workspace-quota');
    await audited(page);
    await shot(page, 'admin-workspace-quota');

    await page.fill('#workspace-quota', '2048');
    await page.click('[data-test="admin-workspace-quota-save"]');
    await ui.toast('Quota of “Sales EMEA” saved.').waitFor();
    await form.waitFor({ state: 'detached' });
    // Back on the row's button, which now shows the new quota.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-test'))).toBe('admin-workspace-quota');
    expect(await row.locator('[data-test="admin-workspace-usage"]').innerText()).toMatch(/ \/ 2\.00 GB$/);
    const { workspaces } = await alice.console.GET('/api/workspaces').then((answer) => answer.data!);
    expect(workspaces.find((workspace) => workspace.id === workspaceId)?.quotaBytes).toBe(2048 * 1024 * 1024);

    await page.setViewportSize(PHONE);
    try {
      await audited(page);
      await shot(page, 'admin-workspaces-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
