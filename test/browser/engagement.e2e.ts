import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { launchChromium, share, upload } from '../support/browser.js';

const LONG_MARKDOWN = Array.from(
  { length: 60 },
  (_, i) => `## Part ${i + 1}\n\nParagraph ${i + 1}. ${'Words to read slowly and carefully. '.repeat(12)}\n`,
).join('\n');

const LONG_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>long</title></head><body>${Array.from(
  { length: 80 },
  (_, i) => `<p style="margin:0 0 40px">Paragraph ${i + 1}. ${'Words to read slowly. '.repeat(10)}</p>`,
).join('')}</body></html>`;

describe('engagement measured in a real browser', () => {
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

  async function onlyVisit(shareId: string, until: (visit: { completed: boolean; durationMs: number | null }) => boolean) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { visits } = await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: shareId } } }));
      if ((visits.length === 1 && until(visits[0]!)) || Date.now() > deadline) return visits;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Opens the link, scrolls to the end (of the page, or of the frame), stays 3 s, closes the tab. */
  async function read(url: string, options: { frame: boolean; headers?: Record<string, string> }): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 }, extraHTTPHeaders: options.headers ?? {} });
    const page = await context.newPage();
    await page.goto(url);
    if (options.frame) {
      const frame = page.frameLocator('iframe.sd-frame');
      await frame.locator('p').last().waitFor();
      await frame.locator('p').last().scrollIntoViewIfNeeded();
      await frame.locator('body').evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    } else {
      await page.mouse.wheel(0, 100_000);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    }
    await page.waitForTimeout(3_000);
    await page.close({ runBeforeUnload: true });
    await context.close();
  }

  it('records time, depth and completion of a long Markdown document', async () => {
    const doc = await upload(app, alice, 'long.md', LONG_MARKDOWN);
    const { share: created, url } = await share(alice, doc.fileId);
    await read(url, { frame: false });
    const [visit] = await onlyVisit(created.id, (v) => v.completed && (v.durationMs ?? 0) >= 2000);
    expect(visit!.completed).toBe(true);
    expect(visit!.scrollDepth).toBeGreaterThanOrEqual(0.95);
    expect(visit!.durationMs).toBeGreaterThanOrEqual(2000);
  });

  it('records them for an HTML document through the frame', async () => {
    const doc = await upload(app, alice, 'long.html', LONG_HTML);
    const { share: created, url } = await share(alice, doc.fileId);
    await read(url, { frame: true });
    const [visit] = await onlyVisit(created.id, (v) => v.completed && (v.durationMs ?? 0) >= 2000);
    expect(visit!.completed).toBe(true);
    expect(visit!.scrollDepth).toBeGreaterThanOrEqual(0.95);
    expect(visit!.durationMs).toBeGreaterThanOrEqual(2000);
  });

  it('counts but does not measure a visitor who sends Sec-GPC or DNT', async () => {
    const doc = await upload(app, alice, 'private.md', LONG_MARKDOWN);
    for (const headers of [{ 'Sec-GPC': '1' }, { DNT: '1' }]) {
      const { share: created, url } = await share(alice, doc.fileId);
      await read(url, { frame: false, headers });
      const visits = await onlyVisit(created.id, () => true);
      expect(visits).toHaveLength(1);
      expect(visits[0]).toMatchObject({ completed: false, durationMs: null, scrollDepth: null });
    }
  });
});
