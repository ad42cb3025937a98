import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, type UploadedDocument } from '../support/browser.js';
import { postChunked } from '../support/raw-http.js';

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('the visit log', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    bob = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'insight.md', '# Insight\n\nread me');
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  type VisitQuery = { limit?: number; cursor?: string; from?: string; to?: string; automated?: 'true' | 'false' };
  type Page = Awaited<ReturnType<typeof visitsOf>>;
  const visitsOf = (shareId: string, query: VisitQuery = {}) =>
    unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: shareId }, query } }));

  /** The log is written after the answer: wait until it holds `count` visits. */
  async function logged(shareId: string, count: number): Promise<Page> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const page = await visitsOf(shareId, { limit: 200 });
      if (page.visits.length >= count || Date.now() > deadline) return page;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('records each admitted visit with who, from where and with what, newest first', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const desktop = new HttpVisitor(app.baseUrl, CHROME);
    expect(isDocument(await desktop.get(path, { referer: 'https://chat.example/room' }))).toBe(true);
    await logged(created.id, 1);
    expect(isDocument(await desktop.get(path))).toBe(true);
    await logged(created.id, 2);
    expect(isDocument(await new HttpVisitor(app.baseUrl, IPHONE).get(path, { dnt: '1' }))).toBe(true);
    await logged(created.id, 3);
    expect(isDocument(await new HttpVisitor(app.baseUrl, 'curl/8.5.0').get(path))).toBe(true);

    const page = await logged(created.id, 4);
    expect(page.nextCursor).toBeNull();
    expect(page.visits.map((visit) => visit.userAgent)).toEqual(['curl/8.5.0', IPHONE, CHROME, CHROME]);
    const [script, phone, again, first] = page.visits;
    expect(Object.keys(first!).sort()).toEqual(
      [
        'id',
        'at',
        'visitorId',
        'ipPrefix',
        'referer',
        'userAgent',
        'browser',
        'os',
        'device',
        'loginEmail',
        'automated',
        'durationMs',
        'scrollDepth',
        'completed',
        'documents',
      ].sort(),
    );
    // A single file's visits open no documents of a collection.
    expect(first!.documents).toEqual([]);
    expect(first).toMatchObject({
      ipPrefix: '127.0.0.0/24',
      referer: 'https://chat.example/room',
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      loginEmail: null,
      automated: false,
      durationMs: null,
      scrollDepth: null,
      completed: false,
    });
    expect(again!.visitorId).toBe(first!.visitorId);
    expect(again!.referer).toBeNull();
    expect(phone).toMatchObject({ device: 'mobile', os: 'iOS', automated: false });
    expect(phone!.visitorId).not.toBe(first!.visitorId);
    expect(script).toMatchObject({ automated: true, device: 'other' });
    // The visitor id is not the cookie's value, nor the key inside it.
    const cookie = decodeURIComponent(desktop.cookies.get('sd_visitor')!);
    expect(cookie).not.toContain(first!.visitorId);
    expect(first!.visitorId).not.toBe(cookie.slice(0, cookie.lastIndexOf('.')));

    expect((await visitsOf(created.id, { automated: 'true' })).visits.map((visit) => visit.id)).toEqual([script!.id]);
    expect((await visitsOf(created.id, { automated: 'false' })).visits).toHaveLength(3);
    const from = (await visitsOf(created.id, { from: phone!.at })).visits;
    expect(from.map((visit) => visit.id)).toEqual([script!.id, phone!.id]);
    expect((await visitsOf(created.id, { to: phone!.at })).visits.map((visit) => visit.id)).toEqual([again!.id, first!.id]);
  });

  it('pages by cursor without gaps or repeats', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    await Promise.all(Array.from({ length: 12 }, () => new HttpVisitor(app.baseUrl).get(path)));
    const all = (await logged(created.id, 12)).visits.map((visit) => visit.id);
    expect(all).toHaveLength(12);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await visitsOf(created.id, { limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.visits.map((visit) => visit.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(all);
  });

  it('exports the same rows as CSV, with formulas defused', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    await new HttpVisitor(app.baseUrl, CHROME).get(new URL(url).pathname, { referer: 'https://x.example/=1+2' });
    await new HttpVisitor(app.baseUrl, '=HYPERLINK("https://evil.example")').get(new URL(url).pathname);
    const visits = (await logged(created.id, 2)).visits;
    const response = await fetch(`${app.baseUrl}/api/v1/shares/${created.id}/visits.csv`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'id,at,visitorId,ipPrefix,referer,userAgent,browser,os,device,loginEmail,automated,durationMs,scrollDepth,completed,documents',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(visits[0]!.id);
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(lines[2]).toContain(',https://x.example/=1+2,');
    expect(lines[2]).toMatch(/,desktop,,false,,,false,\[\]$/);
  });

  it('is printed by the CLI, as a table, JSON or CSV', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    await new HttpVisitor(app.baseUrl, CHROME).get(new URL(url).pathname, { referer: 'https://cli.example/' });
    const [visit] = (await logged(created.id, 1)).visits;
    const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token };
    const run = (args: string[]) => promisify(execFile)(process.execPath, [CLI_BIN, ...args], { env });
    expect((await run(['shares', 'visits', created.id])).stdout).toContain('https://cli.example/');
    expect(JSON.parse((await run(['shares', 'visits', created.id, '--json'])).stdout)).toEqual({
      visits: [visit],
      nextCursor: null,
    });
    const csv = (await run(['shares', 'visits', created.id, '--csv'])).stdout.trim().split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(visit!.id);
  });

  it('takes engagement beacons only for their own visit, bounded, throttled and only upwards', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const page = await new HttpVisitor(app.baseUrl).get(new URL(url).pathname);
    const signed = /data-visit="([^"]+)"/.exec(page.body)![1]!.replace(/&quot;/g, '"');
    const [visit] = (await logged(created.id, 1)).visits;
    const beacon = (form: Record<string, string>) =>
      fetch(`${app.baseUrl}/s/_beacon`, { method: 'POST', body: new URLSearchParams(form) }).then((response) => response.status);

    expect(await beacon({ v: signed, t: '0', d: '0.6', c: '0' })).toBe(204);
    expect(await beacon({ v: signed, t: '0', d: '0.3', c: '0' })).toBe(204);
    const forged = signed.replace(visit!.id, '00000000-0000-4000-8000-000000000000');
    expect(await beacon({ v: forged, t: '0', d: '1', c: '1' })).toBe(400);
    expect(await beacon({ v: signed, t: '0', d: '7', c: '1' })).toBe(400);
    expect(await beacon({ v: signed, t: '0', d: '1', c: '1', pad: 'x'.repeat(600) })).toBe(413);
    const [after] = (await visitsOf(created.id)).visits;
    expect(after).toMatchObject({ scrollDepth: 0.6, completed: false });

    const statuses = await Promise.all(Array.from({ length: 40 }, () => beacon({ v: signed, t: '0', d: '0.7', c: '0' })));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 204 || status === 429)).toBe(true);
  });

  it('counts the bytes a chunked beacon sends (no Content-Length) against its 512-byte limit', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const page = await new HttpVisitor(app.baseUrl).get(new URL(url).pathname);
    const signed = /data-visit="([^"]+)"/.exec(page.body)![1]!.replace(/&quot;/g, '"');
    await logged(created.id, 1);
    const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
    const beacon = (body: Buffer) => postChunked(`${app.baseUrl}/s/_beacon`, 'application/x-www-form-urlencoded', body, 50);

    const long = form({ v: signed, t: '0', d: '0.9', c: '1', pad: 'x'.repeat(600) });
    expect(long.length).toBeGreaterThan(600);
    const refused = await beacon(long);
    expect(refused.status).toBe(413);
    expect(refused.body).toBe('');
    expect((await visitsOf(created.id)).visits[0]).toMatchObject({ completed: false });

    const short = form({ v: signed, t: '0', d: '0.8', c: '1' });
    expect(short.length).toBeLessThan(512);
    expect((await beacon(short)).status).toBe(204);
    expect((await visitsOf(created.id)).visits[0]).toMatchObject({ scrollDepth: 0.8, completed: true });
  });

  it('sums the log up for the console: days, engagement, referrers, devices', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const first = await new HttpVisitor(app.baseUrl, CHROME).get(path, { referer: 'https://news.example/item?id=1' });
    await new HttpVisitor(app.baseUrl, IPHONE).get(path, { referer: 'https://news.example/other' });
    await new HttpVisitor(app.baseUrl, 'curl/8.5.0').get(path);
    await logged(created.id, 3);
    const signed = /data-visit="([^"]+)"/.exec(first.body)![1]!;
    await fetch(`${app.baseUrl}/s/_beacon`, {
      method: 'POST',
      body: new URLSearchParams({ v: signed, t: '0', d: '0.97', c: '1' }),
    });
    const summary = await unwrap(
      alice.console.GET('/api/console/shares/{id}/analytics', { params: { path: { id: created.id }, query: { days: 7 } } }),
    );
    expect(summary.days).toHaveLength(7);
    expect(summary.days[6]).toMatchObject({ human: 2, automated: 1 });
    expect(summary).toMatchObject({ humanVisits: 2, automatedVisits: 1, sampledVisits: 2, measuredVisits: 1, completionRate: 1 });
    expect(summary.depthHistogram[9]).toBe(1);
    expect(summary.topReferrers).toEqual([{ name: 'news.example', visits: 2 }]);
    expect(summary.devices).toEqual([
      { name: 'desktop', visits: 1 },
      { name: 'mobile', visits: 1 },
    ]);
    const page = await unwrap(alice.console.GET('/api/console/shares/{id}/visit-log', { params: { path: { id: created.id } } }));
    expect(page.visits).toHaveLength(3);
    const foreign = await bob.console.GET('/api/console/shares/{id}/analytics', { params: { path: { id: created.id } } });
    expect(foreign.response.status).toBe(404);
  });

  it('answers 404 to anyone but the owner and 400 to a bad query', async () => {
    const { share: created } = await share(alice, doc.fileId);
    const foreign = await bob.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: created.id } } });
    expect(foreign.response.status).toBe(404);
    const foreignCsv = await fetch(`${app.baseUrl}/api/v1/shares/${created.id}/visits.csv`, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(foreignCsv.status).toBe(404);
    for (const query of [
      { limit: 0 },
      { limit: 201 },
      { cursor: 'bm9wZQ' },
      { from: 'yesterday' },
      { automated: 'yes' },
    ] as VisitQuery[]) {
      const bad = await alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: created.id }, query } });
      expect(bad.response.status, JSON.stringify(query)).toBe(400);
      expect(bad.error).toMatchObject({ code: 'VALIDATION' });
    }
  });

  it('keeps link previews and HEAD out of the log and the counts', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const preview = await new HttpVisitor(app.baseUrl, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)').get(path);
    expect(preview.status).toBe(200);
    expect(isDocument(preview)).toBe(false);
    expect(preview.body).toContain('<meta property="og:title" content="insight.md">');
    expect(preview.body).not.toContain('read me');
    // The preview speaks the language its agent asks for.
    const german = await new HttpVisitor(app.baseUrl, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)').get(path, {
      'accept-language': 'de-DE,de;q=0.9',
    });
    expect(german.body).toContain('<html lang="de"');
    expect(german.body).toContain('<meta property="og:description" content="Dies ist ein Link zu einem geteilten Dokument.');
    const once = await share(alice, doc.fileId, { oneTime: true });
    for (const agent of ['facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'WhatsApp/2.23.20.0 A', 'Discordbot/2.0']) {
      const onceOpened = await new HttpVisitor(app.baseUrl, agent).get(new URL(once.url).pathname);
      expect(onceOpened.body).toContain('og:title');
    }
    expect((await new HttpVisitor(app.baseUrl).head(path)).status).toBe(200);
    expect((await fetch(`${app.baseUrl}${path}`, { method: 'OPTIONS' })).status).not.toBe(200);
    await new HttpVisitor(app.baseUrl).get(path);
    const page = await logged(created.id, 1);
    expect(page.visits).toHaveLength(1);
    const counts = await sql<{ id: string; visit_count: number; consumed: boolean }>(
      app,
      'SELECT id, visit_count, consumed_at IS NOT NULL AS consumed FROM shares WHERE id = ANY($1::uuid[])',
      [[created.id, once.share.id]],
    );
    expect(counts.find((row) => row.id === created.id)).toMatchObject({ visit_count: 1, consumed: false });
    expect(counts.find((row) => row.id === once.share.id)).toMatchObject({ visit_count: 0, consumed: false });
  });

  it('stores no full address', async () => {
    const columns = await sql<{ column_name: string }>(
      app,
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'share_visit_log'`,
    );
    expect(columns.map((column) => column.column_name)).not.toContain('ip');
    const leaked = await sql(app, `SELECT id FROM share_visit_log WHERE ip_prefix = '127.0.0.1' OR ip_prefix NOT LIKE '%/%'`);
    expect(leaked).toEqual([]);
  });
});
