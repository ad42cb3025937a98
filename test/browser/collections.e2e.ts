import { unwrap } from '@sharedown/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { launchChromium, waitForScan } from '../support/browser.js';

const LONG_MARKDOWN = Array.from(
  { length: 60 },
  (_, i) => `## Part ${i + 1}\n\nParagraph ${i + 1}. ${'Words to read slowly and carefully. '.repeat(12)}\n`,
).join('\n');

async function put(app: RunningApp, user: TestUser, name: string, content: string, folderId: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  form.append('folderId', folderId);
  const response = await fetch(`${app.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  const { file } = (await response.json()) as { file: { id: string } };
  await waitForScan(user, file.id, 'CLEAN');
  return file.id;
}

describe('a collection in a real browser', () => {
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

  it('opens the folder, then a document from it and back, counting one visit and logging the read', async () => {
    const folder = (await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Reading list' } }))).folder.id;
    const guides = (await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Guides', parentId: folder } }))).folder.id;
    const long = await put(app, alice, 'long.md', LONG_MARKDOWN, folder);
    await put(app, alice, 'guide.html', '<!doctype html><h1 id="g">Guide</h1>', guides);
    const { share, url } = await unwrap(alice.api.POST('/api/v1/shares', { body: { folderId: folder, oneTime: true } }));

    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Reading list');
    expect(await page.locator('h2').allTextContents()).toEqual(['Guides']);
    expect(await page.locator('td a').allTextContents()).toEqual(['long.md', 'guide.html']);

    await page.locator('td a', { hasText: 'guide.html' }).click();
    await expect.poll(() => page.frameLocator('iframe.sd-frame').locator('#g').textContent()).toBe('Guide');
    await page.locator('a.sd-back').click();
    await page.locator('td a', { hasText: 'long.md' }).click();
    await page.locator('article.sd-doc h2').first().waitFor();
    await page.mouse.wheel(0, 100_000);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(2_000);
    await page.close({ runBeforeUnload: true });
    await context.close();

    expect(await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: share.id } } }))).toMatchObject({
      visitCount: 1,
      consumedAt: expect.any(String),
    });
    await expect
      .poll(
        async () => {
          const { visits } = await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: share.id } } }));
          return visits[0]?.documents.find((document) => document.fileId === long);
        },
        { timeout: 15_000 },
      )
      .toMatchObject({ fileName: 'long.md', completed: true });
    const { visits } = await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: share.id } } }));
    expect(visits).toHaveLength(1);
    expect(visits[0]!.documents.map((document) => document.fileName)).toEqual(['guide.html', 'long.md']);
    const longRead = visits[0]!.documents[1]!;
    expect(longRead.scrollDepth).toBeGreaterThanOrEqual(0.95);
    expect(longRead.durationMs).toBeGreaterThan(0);
  });
});
