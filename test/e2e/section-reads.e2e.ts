import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, share, sql, upload, type UploadedDocument } from '../support/browser.js';
import { connect } from '../support/mcp-server.js';

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

const HEADINGS = ['Why', 'Setup', 'Usage', 'Limits', 'Changelog', 'Credits'];
const MARKDOWN = `Before any heading.\n\n${HEADINGS.map((heading, i) => `## ${heading}\n\nSection ${i + 1} text.\n`).join('\n')}`;
const HTML = `<!doctype html><html><body><p>intro</p><h1>Start</h1><p>a</p><div><h3>  Deep
  inside </h3></div><h4>not a section</h4><h2>End</h2></body></html>`;

describe('reading by section', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let markdown: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    markdown = await upload(app, alice, 'guide.md', MARKDOWN);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  const analyticsOf = (shareId: string) =>
    unwrap(alice.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: shareId }, query: { days: 7 } } }));

  /** Opens the link `count` times; answers each visit's signed beacon value once the log holds them all. */
  async function visits(url: string, shareId: string, count: number, headers: Record<string, string> = {}): Promise<string[]> {
    const path = new URL(url).pathname;
    const pages = [];
    for (let i = 0; i < count; i++) pages.push(await new HttpVisitor(app.baseUrl).get(path, headers));
    const deadline = Date.now() + 15_000;
    while ((await sql(app, 'SELECT 1 FROM share_visit_log WHERE share_id = $1', [shareId])).length < count) {
      if (Date.now() > deadline) throw new Error('visits not logged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return pages.map((page) => /data-visit="([^"]+)"/.exec(page.body)?.[1] ?? '');
  }

  /** The visits began two minutes ago: a section may have been on screen for up to 121 s. */
  async function twoMinutesAgo(shareId: string): Promise<void> {
    await sql(app, `UPDATE share_visit_log SET at = now() - interval '120 seconds' WHERE share_id = $1`, [shareId]);
  }

  /** A beacon's body as the viewer page writes it (separators of s not escaped). */
  async function beacon(signed: string, fields: string): Promise<number> {
    const response = await fetch(`${app.baseUrl}/s/_beacon`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `v=${encodeURIComponent(signed)}&${fields}`,
    });
    return response.status;
  }

  it('counts readers and median seconds per section from beacons, dropping unknown sections and impossible times', async () => {
    const { share: created, url } = await share(alice, markdown.fileId);
    const [a, b, c, d] = await visits(url, created.id, 4);
    expect(a!.split('.').slice(0, 3)).toEqual([created.id, expect.any(String), markdown.fileId]);
    await twoMinutesAgo(created.id);

    // a: readers of sections 0 and 1; 800 ms of section 2 does not make a reader. Later beacons only raise.
    expect(await beacon(a!, 't=9000&d=0.5000&c=0&s=0:5000,1:2000,2:800')).toBe(204);
    expect(await beacon(a!, 't=9500&d=0.5000&c=0&s=0:6000')).toBe(204);
    expect(await beacon(a!, 't=9500&d=0.5000&c=0&s=0:4000,1:1500')).toBe(204);
    // b: section 9 does not exist (six sections): dropped, the rest stands.
    expect(await beacon(b!, 't=8000&d=0.7000&c=0&s=0:3000,1:4000,9:5000,6:2000')).toBe(204);
    // c: section 1 was on screen longer than the visit lasts (121 s): dropped alone.
    expect(await beacon(c!, 't=5000&d=0.2000&c=0&s=0:1000,1:999999')).toBe(204);
    // d: each time possible, their sum (500 s) more than four sections at once for 121 s: all dropped;
    // signs, fractions and junk are dropped too; time, depth and completion are still recorded.
    expect(await beacon(d!, 't=7000&d=1.0000&c=1&s=0:100000,1:100000,2:100000,3:100000,4:100000')).toBe(204);
    expect(await beacon(d!, 't=7000&d=1.0000&c=1&s=0:-5,1:2.5,2:1e4,x,3:')).toBe(204);

    const summary = await analyticsOf(created.id);
    expect(summary.sections).toEqual(
      HEADINGS.map((heading, index) => ({
        fileId: markdown.fileId,
        fileName: 'guide.md',
        index,
        heading,
        ...[
          { readers: 3, medianSeconds: 3 }, // a 6 s, b 3 s, c 1 s
          { readers: 2, medianSeconds: 3 }, // a 2 s, b 4 s
          { readers: 0, medianSeconds: null }, // a 0.8 s
          { readers: 0, medianSeconds: null },
          { readers: 0, medianSeconds: null },
          { readers: 0, medianSeconds: null },
        ][index],
      })),
    );
    const stored = await sql<{ visit_id: string; section: number; ms: number }>(
      app,
      'SELECT visit_id, section, ms FROM share_section_reads WHERE share_id = $1 ORDER BY ms DESC, section',
      [created.id],
    );
    expect(stored.map((row) => [row.section, row.ms])).toEqual([
      [0, 6000],
      [1, 4000],
      [0, 3000],
      [1, 2000],
      [0, 1000],
      [2, 800],
    ]);
    const { visits: logged } = await unwrap(
      alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: created.id } } }),
    );
    expect(logged.map((visit) => [visit.durationMs, visit.completed]).sort()).toEqual(
      [
        [9500, false],
        [8000, false],
        [5000, false],
        [7000, true],
      ].sort(),
    );
  });

  it('keeps the greatest of dozens of parallel beacons of one visit, with no error', async () => {
    const { share: created, url } = await share(alice, markdown.fileId);
    const [signed] = await visits(url, created.id, 1);
    await twoMinutesAgo(created.id);
    const statuses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => beacon(signed!, `t=${i * 100}&d=0.1000&c=0&s=0:${1000 + i * 100},5:${3000 - i * 10}`)),
    );
    expect(statuses).toEqual(Array.from({ length: 25 }, () => 204));
    const rows = await sql<{ section: number; ms: number }>(
      app,
      'SELECT section, ms FROM share_section_reads WHERE share_id = $1 ORDER BY section',
      [created.id],
    );
    expect(rows).toEqual([
      { section: 0, ms: 3400 },
      { section: 5, ms: 3000 },
    ]);
  });

  it('finds the sections of an HTML document on the server, as the frame will count them', async () => {
    const doc = await upload(app, alice, 'page.html', HTML);
    const { share: created, url } = await share(alice, doc.fileId);
    const [signed] = await visits(url, created.id, 1);
    await twoMinutesAgo(created.id);
    expect(await beacon(signed!, 't=5000&d=1.0000&c=1&s=1:2500,3:9000')).toBe(204);
    expect((await analyticsOf(created.id)).sections).toEqual([
      { fileId: doc.fileId, fileName: 'page.html', index: 0, heading: 'Start', readers: 0, medianSeconds: null },
      { fileId: doc.fileId, fileName: 'page.html', index: 1, heading: 'Deep inside', readers: 1, medianSeconds: 2.5 },
      { fileId: doc.fileId, fileName: 'page.html', index: 2, heading: 'End', readers: 0, medianSeconds: null },
    ]);
  });

  it('has no sections for a text document, and measures nobody who sends DNT or Sec-GPC', async () => {
    const text = await upload(app, alice, 'plain.txt', 'Just text.\n\n# not a heading\n');
    const { share: textShare, url: textUrl } = await share(alice, text.fileId);
    const [signed] = await visits(textUrl, textShare.id, 1);
    await twoMinutesAgo(textShare.id);
    expect(await beacon(signed!, 't=5000&d=1.0000&c=1&s=0:3000')).toBe(204);
    expect((await analyticsOf(textShare.id)).sections).toEqual([]);

    for (const headers of [{ DNT: '1' }, { 'Sec-GPC': '1' }]) {
      const { share: created, url } = await share(alice, markdown.fileId);
      expect(await visits(url, created.id, 1, headers)).toEqual(['']);
      const summary = await analyticsOf(created.id);
      expect(summary.sections.map((section) => section.readers)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });

  it('reports a collection per document: every document opened, by name, each with its sections', async () => {
    const [guide, page, plain] = await Promise.all([
      upload(app, alice, 'b-guide.md', MARKDOWN),
      upload(app, alice, 'a-page.html', HTML),
      upload(app, alice, 'c-plain.txt', 'no sections'),
    ]);
    const [folder] = await sql<{ id: string }>(
      app,
      `INSERT INTO folders (user_id, name) SELECT user_id, 'handbook' FROM files WHERE id = $1 RETURNING id`,
      [guide.fileId],
    );
    await sql(app, 'UPDATE files SET folder_id = $1 WHERE id = ANY($2::uuid[])', [
      folder!.id,
      [guide.fileId, page.fileId, plain.fileId],
    ]);
    const [collection] = await sql<{ id: string }>(
      app,
      `INSERT INTO shares (user_id, folder_id, token) SELECT user_id, $1, $2 FROM folders WHERE id = $1 RETURNING id`,
      [folder!.id, `col${Date.now()}`],
    );
    const visitIds = ['a', 'b'].map(() => crypto.randomUUID());
    await sql(
      app,
      `INSERT INTO share_visit_log (id, share_id, at, visitor_id, ip_prefix, device, automated, measured)
       SELECT v, $2, now() - interval '1 minute', 'x', '127.0.0.0/24', 'desktop', false, true FROM unnest($1::uuid[]) v`,
      [visitIds, collection!.id],
    );
    // Both visits opened the HTML page; only the guide has section reads (2 s and 4 s of "Setup").
    await sql(app, `INSERT INTO share_document_reads (visit_id, file_id, share_id) SELECT v, $2, $3 FROM unnest($1::uuid[]) v`, [
      visitIds,
      page.fileId,
      collection!.id,
    ]);
    await sql(
      app,
      `INSERT INTO share_section_reads (visit_id, file_id, section, share_id, heading, ms)
       SELECT v, $2, 1, $3, 'Setup', ms FROM unnest($1::uuid[], $4::int[]) AS r(v, ms)`,
      [visitIds, guide.fileId, collection!.id, [2000, 4000]],
    );
    const { sections } = await analyticsOf(collection!.id);
    expect(
      sections.map((section) => [section.fileName, section.index, section.heading, section.readers, section.medianSeconds]),
    ).toEqual([
      ['a-page.html', 0, 'Start', 0, null],
      ['a-page.html', 1, 'Deep inside', 0, null],
      ['a-page.html', 2, 'End', 0, null],
      ...HEADINGS.map((heading, index) => ['b-guide.md', index, heading, index === 1 ? 2 : 0, index === 1 ? 3 : null]),
    ]);
    expect(new Set(sections.map((section) => section.fileId))).toEqual(new Set([page.fileId, guide.fileId]));
  });

  it('answers the same sections through the console, MCP and the CLI, and 404 to another account', async () => {
    const { share: created, url } = await share(alice, markdown.fileId);
    const [signed] = await visits(url, created.id, 1);
    await twoMinutesAgo(created.id);
    expect(await beacon(signed!, 't=5000&d=1.0000&c=1&s=1:4200')).toBe(204);
    const rest = await analyticsOf(created.id);
    expect(rest.sections[1]).toMatchObject({ heading: 'Setup', readers: 1, medianSeconds: 4.2 });

    const consoleSummary = await unwrap(
      alice.console.GET('/api/console/shares/{id}/analytics', { params: { path: { id: created.id }, query: { days: 7 } } }),
    );
    expect(consoleSummary.sections).toEqual(rest.sections);

    const mcp = await connect('stdio', { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
    try {
      const result = await mcp.client.callTool({ name: 'service_analytics', arguments: { shareId: created.id, days: 7 } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { sections: unknown }).sections).toEqual(rest.sections);
    } finally {
      await mcp.close();
    }

    const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token };
    const { stdout } = await promisify(execFile)(process.execPath, [CLI_BIN, 'shares', 'stats', created.id, '--days', '7'], {
      env,
    });
    expect(stdout).toContain('Reading by section');
    const setupLine = stdout.split('\n').find((line) => line.includes('Setup'));
    expect(setupLine).toMatch(/\b1\b.*\b1\b.*4\.2/);
    expect(stdout.split('\n').find((line) => line.includes('Credits'))).toMatch(/\b0\b.*-/);

    const foreign = await bob.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: created.id } } });
    expect(foreign.response.status).toBe(404);
  });
});

describe('section reads across two api replicas', () => {
  const SESSION_SECRET = 'sections-replica-secret-0123456789abcdef';
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;

  beforeAll(async () => {
    first = await startApp({ env: { SESSION_SECRET } });
    second = await startApp({
      env: {
        SESSION_SECRET,
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    alice = await createUser(first.baseUrl);
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
  });

  it('ten readers, each beaconing to both replicas at once: exactly ten readers, each time the greatest sent', async () => {
    const doc = await upload(first, alice, 'shared.md', MARKDOWN);
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const replicas = [first.baseUrl, second.baseUrl];
    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new HttpVisitor(replicas[i % 2]!, `Reader/${i}`).get(path)),
    );
    const signed = pages.map((page) => /data-visit="([^"]+)"/.exec(page.body)![1]!);
    const deadline = Date.now() + 15_000;
    while ((await sql(first, 'SELECT 1 FROM share_visit_log WHERE share_id = $1', [created.id])).length < 10) {
      if (Date.now() > deadline) throw new Error('visits not logged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sql(first, `UPDATE share_visit_log SET at = now() - interval '120 seconds' WHERE share_id = $1`, [created.id]);

    // Reader i reports 1000 + 100·i ms of section 1, in three beacons whose totals rise, all sent at once to both replicas.
    const statuses = await Promise.all(
      signed.flatMap((v, i) =>
        [0.5, 0.8, 1].flatMap((part) =>
          replicas.map((replica) =>
            fetch(`${replica}/s/_beacon`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: `v=${encodeURIComponent(v)}&t=1000&d=0.5000&c=0&s=1:${Math.round((1000 + 100 * i) * part)}`,
            }).then((response) => response.status),
          ),
        ),
      ),
    );
    expect(statuses).toEqual(statuses.map(() => 204));
    const rows = await sql<{ ms: number }>(
      first,
      'SELECT ms FROM share_section_reads WHERE share_id = $1 AND section = 1 ORDER BY ms',
      [created.id],
    );
    expect(rows.map((row) => row.ms)).toEqual(Array.from({ length: 10 }, (_, i) => 1000 + 100 * i));
    const { sections } = await unwrap(
      alice.api.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: created.id }, query: { days: 1 } } }),
    );
    // Median of 1.0 … 1.9 s.
    expect(sections[1]).toMatchObject({ heading: 'Setup', readers: 10, medianSeconds: 1.5 });
  });
});
