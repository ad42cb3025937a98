import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { unwrap, type Schemas } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { consolePage, launchChromium, share, sql, upload, waitForScan } from '../support/browser.js';

const HEADINGS = ['Overview', 'Install', 'Configure', 'Operate', 'Upgrade', 'Remove'];
const PARAGRAPH = 'Words to read slowly and carefully, one line after another. '.repeat(8);

// Every section is far taller than the 700 px viewport: with section 2's heading at the top, only section 2 is on screen.
const MARKDOWN = `Before any heading.\n\n${HEADINGS.map(
  (heading, i) =>
    `## ${heading}\n\n${Array.from({ length: 25 }, (_, p) => `Section ${i} paragraph ${p}. ${PARAGRAPH}`).join('\n\n')}\n`,
).join('\n')}`;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>guide</title></head><body>${HEADINGS.map(
  (heading, i) =>
    `<h2>${heading}</h2>${Array.from({ length: 25 }, (_, p) => `<p>Section ${i} paragraph ${p}. ${PARAGRAPH}</p>`).join('')}`,
).join('')}</body></html>`;

type Sections = Schemas['AnalyticsSectionDto'][];

describe('reading by section in a real browser', () => {
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

  async function sectionsOf(shareId: string): Promise<Sections> {
    const summary = await unwrap(
      alice.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: shareId }, query: { days: 1 } } }),
    );
    return summary.sections;
  }

  /** The analytics once section `index` has a reader (or after 15 s). */
  async function readersOf(shareId: string, index: number): Promise<Sections> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const sections = await sectionsOf(shareId);
      if ((sections[index]?.readers ?? 0) > 0 || Date.now() > deadline) return sections;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Opens the link, brings section 2's heading to the top of the viewport (of the page, or of the
   * frame) and keeps it there ~3 s, never going further; then closes the tab.
   */
  async function read(url: string, options: { frame: boolean; headers?: Record<string, string> }): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 }, extraHTTPHeaders: options.headers ?? {} });
    const page: Page = await context.newPage();
    await page.goto(url);
    let target: Page | Frame = page;
    if (options.frame) {
      await page.frameLocator('iframe.sd-frame').locator('h2').last().waitFor({ state: 'attached' });
      target = page.frames().find((frame) => frame.url().includes('/s/_render/'))!;
    }
    await target
      .locator('h2')
      .nth(2)
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.mouse.move(100, 100);
    await page.waitForTimeout(1_500);
    await page.mouse.move(200, 200);
    await page.waitForTimeout(1_500);
    await page.close({ runBeforeUnload: true });
    await context.close();
  }

  /** Uploads into a folder, and waits until the upload is CLEAN. */
  async function put(name: string, content: string, folderId: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/plain' }), name);
    form.append('folderId', folderId);
    const response = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    const { file } = (await response.json()) as { file: { id: string } };
    await waitForScan(alice, file.id, 'CLEAN');
    return file.id;
  }

  function expectSectionTwoRead(sections: Sections): void {
    expect(sections.map((section) => section.heading)).toEqual(HEADINGS);
    expect(sections[2]!.readers).toBe(1);
    expect(sections[2]!.medianSeconds).toBeGreaterThanOrEqual(2);
    expect(sections[3]!.readers).toBe(0);
    expect(sections[4]!.readers).toBe(0);
    expect(sections[5]!.readers).toBe(0);
    expect(sections[5]!.medianSeconds).toBeNull();
  }

  it('measures how long each section of a Markdown document was on screen', async () => {
    const doc = await upload(app, alice, 'guide.md', MARKDOWN);
    const { share: created, url } = await share(alice, doc.fileId);
    await read(url, { frame: false });
    expectSectionTwoRead(await readersOf(created.id, 2));

    // The owner sees it on the share's analytics page: a bar of readers and the median seconds per section.
    const owner = await consolePage(browser, app, alice.cookie);
    await owner.goto(`${app.baseUrl}/shares/${created.id}/analytics`);
    const rows = owner.locator('[data-test="section-row"]');
    await rows.nth(5).waitFor();
    expect(await rows.locator('th').allInnerTexts()).toEqual(HEADINGS);
    expect(await rows.locator('[data-test="section-readers"]').allInnerTexts()).toEqual(
      (await sectionsOf(created.id)).map((section) => String(section.readers)),
    );
    expect(await rows.nth(2).locator('[data-test="section-median"]').innerText()).toMatch(/^\d+\.\d s/);
    expect(await rows.nth(5).locator('[data-test="section-median"]').innerText()).toBe('—');
    await owner.context().close();
  });

  it('measures them for an HTML document through the frame', async () => {
    const doc = await upload(app, alice, 'guide.html', HTML);
    const { share: created, url } = await share(alice, doc.fileId);
    await read(url, { frame: true });
    expectSectionTwoRead(await readersOf(created.id, 2));
  });

  it('measures each document of a collection, reported per document', async () => {
    const folder = (await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Handbook' } }))).folder.id;
    const [markdown, html] = [await put('handbook.md', MARKDOWN, folder), await put('handbook.html', HTML, folder)];
    const { share: created, url } = await unwrap(alice.api.POST('/api/v1/shares', { body: { folderId: folder } }));

    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('td a', { hasText: 'handbook.html' }).click();
    await page.frameLocator('iframe.sd-frame').locator('h2').last().waitFor({ state: 'attached' });
    const frame = page.frames().find((candidate) => candidate.url().includes('/s/_render/'))!;
    await frame
      .locator('h2')
      .nth(2)
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(3_000);
    await page.locator('a.sd-back').click();
    await page.locator('td a', { hasText: 'handbook.md' }).click();
    await page
      .locator('article.sd-doc h2')
      .nth(2)
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(3_000);
    await page.close({ runBeforeUnload: true });
    await context.close();

    const deadline = Date.now() + 15_000;
    let sections = await sectionsOf(created.id);
    while (sections.filter((section) => section.readers > 0).length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sections = await sectionsOf(created.id);
    }
    const of = (fileId: string) => sections.filter((section) => section.fileId === fileId);
    expect(sections.map((section) => section.fileName)).toEqual([
      ...HEADINGS.map(() => 'handbook.html'),
      ...HEADINGS.map(() => 'handbook.md'),
    ]);
    expectSectionTwoRead(of(html));
    expectSectionTwoRead(of(markdown));
  });

  it('keeps every beacon within 512 bytes when many sections were read, sending those read longest', async () => {
    const many = Array.from({ length: 150 }, (_, i) => `## Part ${i}\n\n${'Short text. '.repeat(20)}\n`).join('\n');
    const doc = await upload(app, alice, 'many.md', many);
    const { share: created, url } = await share(alice, doc.fileId);
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    // Every beacon the page sends, as it sends it.
    await context.addInitScript(() => {
      const sent: string[] = [];
      (window as unknown as { sent: string[] }).sent = sent;
      const original = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (target, body) => {
        if (body instanceof Blob) void body.text().then((text) => sent.push(text));
        return original(target, body);
      };
    });
    const page = await context.newPage();
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/s/_beacon')) statuses.push(response.status());
    });
    await page.goto(url);
    for (let step = 0; step < 40; step++) {
      await page.mouse.wheel(0, 500);
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(3_500);
    const sent = await page.evaluate(() => (window as unknown as { sent: string[] }).sent);
    await page.close({ runBeforeUnload: true });
    await context.close();

    expect(sent.length).toBeGreaterThan(0);
    for (const body of sent) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(512);
    const last = new URLSearchParams(sent.at(-1)!).get('s')!;
    const entries = last.split(',').map((entry) => entry.split(':').map(Number) as [number, number]);
    expect(entries.length).toBeGreaterThan(10);
    // Longest first: what did not fit is what was read the least.
    expect(entries.map(([, ms]) => ms)).toEqual(entries.map(([, ms]) => ms).sort((a, b) => b - a));
    expect(statuses.every((status) => status === 204)).toBe(true);
    const deadline = Date.now() + 15_000;
    let stored: unknown[] = [];
    while (stored.length === 0 && Date.now() < deadline) {
      stored = await sql(app, 'SELECT 1 FROM share_section_reads WHERE share_id = $1', [created.id]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored.length).toBeGreaterThanOrEqual(entries.length);
  });

  it('records nothing of a visitor who sends DNT or Sec-GPC', async () => {
    const doc = await upload(app, alice, 'private.md', MARKDOWN);
    for (const headers of [{ DNT: '1' }, { 'Sec-GPC': '1' }]) {
      const { share: created, url } = await share(alice, doc.fileId);
      await read(url, { frame: false, headers });
      // The visit itself is logged (and only then could a beacon have landed): wait for it.
      const deadline = Date.now() + 15_000;
      while ((await sql(app, 'SELECT 1 FROM share_visit_log WHERE share_id = $1', [created.id])).length === 0) {
        if (Date.now() > deadline) throw new Error('visit not logged');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await sql(app, 'SELECT 1 FROM share_section_reads WHERE share_id = $1', [created.id])).toEqual([]);
      expect((await sectionsOf(created.id)).map((section) => section.readers)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });
});
