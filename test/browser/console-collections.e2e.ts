import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { join } from 'node:path';
import { ARTIFACTS, consolePage, launchChromium, waitForScan } from '../support/browser.js';

/** Uploads a document into a folder through the token's multipart route and waits for its clean scan. */
async function uploadInto(app: RunningApp, user: TestUser, folderId: string, name: string, content: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  form.append('folderId', folderId);
  const response = await fetch(`${app.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const { file } = (await response.json()) as { file: { id: string } };
  await waitForScan(user, file.id, 'CLEAN');
  return file.id;
}

describe('a folder shared as a collection, with an agreement, from the console', () => {
  let app: RunningApp;
  let browser: Browser;
  let alice: TestUser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchChromium()]);
    alice = await createUser(app.baseUrl);
    page = await consolePage(browser, app, alice.cookie);
  });
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: true });

  afterAll(async () => {
    await browser?.close();
    await app?.cleanup();
  });

  it('shares the folder from the files page, the reader accepts and reads, and the owner sees who and what', async () => {
    const { folder } = await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Board papers' } }));
    const minutesId = await uploadInto(app, alice, folder.id, 'minutes.md', '# Minutes\n\nWe met.\n');

    await page.goto(`${app.baseUrl}/files?folder=${folder.id}`);
    await page.click('[data-test="share-folder"]');
    await page.waitForURL(`**/shares/new?folderId=${folder.id}`);
    expect(await page.locator('[data-test="share-create-folder"] [data-test="collection-badge"]').innerText()).toBe('collection');
    expect(await page.locator('#sf-version').count()).toBe(0);
    await page.check('[data-test="sf-agreement-toggle"]');
    await page.fill('#sf-agreement', '## Confidential\n\nKeep the board papers to yourself.');
    await page.check('[data-test="sf-agreement-name"]');
    await page.check('[data-test="sf-watermark-toggle"]');
    expect(await page.locator('[data-test="sf-watermark-placeholders"]').innerText()).toContain('{name}');
    await page.fill('#sf-watermark', '{name} · {email} · {date}');
    await shot('collection-form');
    await page.click('[data-test="share-submit"]');
    await page.waitForSelector('[data-test="share-created"]');
    const url = (await page.locator('[data-test="share-created"] [data-test="share-url"]').innerText()).trim();
    const shareLink = await page.locator('[data-test="share-created"] a', { hasText: 'View statistics' }).getAttribute('href');
    const shareId = shareLink!.split('/').pop()!;
    const created = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: shareId } } }));
    expect(created).toMatchObject({
      folderId: folder.id,
      folderName: 'Board papers',
      agreement: { text: '## Confidential\n\nKeep the board papers to yourself.', requireName: true },
      watermarkEnabled: true,
      watermarkText: '{name} · {email} · {date}',
    });
    expect(created.fileId).toBeUndefined();

    // A reader accepts the agreement with their name, then opens the one document of the collection.
    const readerContext = await browser.newContext({ viewport: { width: 1000, height: 700 }, locale: 'en-US' });
    const reader = await readerContext.newPage();
    await reader.goto(url);
    await reader.check('input[name="accept"]');
    await reader.fill('input[name="name"]', 'Ada Lovelace');
    await reader.click('button[type="submit"]');
    await reader.click(`a[href$="d/${minutesId}"]`);
    await reader.waitForSelector('text=We met.');
    // An anonymous reader has no address: the watermark names them and the day, never the braces.
    expect(await reader.textContent('.sd-wm span')).toBe(`Ada Lovelace · ${new Date().toISOString().slice(0, 10)}`);
    await readerContext.close();

    // The owner's share page names the folder and lists the acceptance.
    await page.goto(`${app.baseUrl}/shares/${shareId}`);
    expect(await page.locator('main h1 [data-test="collection-label"] .ellipsis').innerText()).toBe('Board papers');
    const acceptance = page.locator('[data-test="acceptances-table"] tbody tr');
    await expect.poll(() => acceptance.count(), { timeout: 10_000 }).toBe(1);
    expect(await acceptance.locator('td').nth(1).innerText()).toBe('Ada Lovelace');
    expect(await acceptance.locator('[data-test="acceptance-digest"]').innerText()).toBe(created.agreement!.sha256.slice(0, 12));
    await shot('collection-share');
    const csv = await page.locator('[data-test="acceptances-csv"]').getAttribute('href');
    const download = await page.request.get(`${app.baseUrl}${csv}`);
    expect(download.status()).toBe(200);
    expect(await download.text()).toContain('Ada Lovelace');

    // A new text from the edit panel asks again; the earlier acceptance stays, marked as of an earlier text.
    await page.click('[data-test="share-edit-open"]');
    await page.fill('[data-test="edit-agreement-text"]', '## Confidential\n\nKeep them to yourself, in writing.');
    await page.click('[data-test="edit-save"]');
    await page.waitForSelector('text=Link settings saved.');
    const edited = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: shareId } } }));
    expect(edited.agreement).toMatchObject({ text: '## Confidential\n\nKeep them to yourself, in writing.', requireName: true });
    expect(edited.agreement!.sha256).not.toBe(created.agreement!.sha256);
    await expect.poll(() => acceptance.first().innerText(), { timeout: 10_000 }).toContain('earlier text');

    // The visit log shows which document the visit opened (the log is written in batches: poll).
    await expect
      .poll(
        async () => {
          await page.goto(`${app.baseUrl}/shares/${shareId}/analytics`);
          await page.waitForSelector('[data-test="visits-table"]');
          return page.locator('[data-test="visit-documents"] li').allInnerTexts();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toEqual([expect.stringContaining('minutes.md')]);
    await shot('collection-visit-log');

    // The folder's own list of links holds the collection.
    await page.goto(`${app.baseUrl}/files?folder=${folder.id}`);
    await page.click('[data-test="folder-shares"]');
    await page.waitForURL(`**/shares?folderId=${folder.id}`);
    await page.waitForSelector('[data-test="share-folder-filter"]');
    const rows = page.locator('[data-test="share-table"] tbody tr[data-share-id]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().getAttribute('data-share-id')).toBe(shareId);
    expect(await rows.first().locator('[data-test="collection-badge"]').innerText()).toBe('collection');
  });
});
