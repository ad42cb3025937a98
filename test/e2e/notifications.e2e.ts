import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import {
  allocateRedisDb,
  createMachineDatabase,
  createUser,
  sessionCookieOf,
  startApp,
  type RunningApp,
  type TestUser,
} from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, type ShareInput } from '../support/browser.js';
import { drainQueues } from '../support/queues.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';

const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const CURL = 'curl/8.5.0';

// bullmq is a dependency of the api, not of the tests: load the api's own copy.
const apiRequire = createRequire(new URL('../../apps/api/package.json', import.meta.url));

let clients = 0;
/** A client address of its own (the replicas trust loopback as their proxy). */
function client(): Record<string, string> {
  return { 'x-forwarded-for': `198.51.${100 + (++clients % 100)}.${clients % 250}` };
}

let counter = 0;
const address = (label: string) => `${label}-${process.pid}-${++counter}@notify.test`;

/** A proven account (signed in with a mailed code, as SMTP requires), with a session and a token. */
async function provenUser(app: RunningApp, smtp: SmtpReceiver, email: string): Promise<TestUser> {
  const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  const headers = client();
  const before = smtp.to(email).length;
  expect((await anonymous.POST('/api/auth/email-code', { body: { email }, headers })).response.status).toBe(200);
  const code = SmtpReceiver.codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Sign-in code'), { after: before }));
  const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code }, headers });
  expect(verified.response.status).toBe(200);
  const cookie = sessionCookieOf(verified.response);
  const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
  const { user } = await unwrap(consoleClient.GET('/api/auth/session'));
  const created = await unwrap(consoleClient.POST('/api/tokens', { body: { name: 'e2e', rateLimitPerMinute: 600 } }));
  return {
    email,
    password: '',
    cookie,
    userId: user.id,
    segment: user.segment,
    token: created.plaintext,
    tokenId: created.token.id,
    api: createSharedownClient({ baseUrl: app.baseUrl, token: created.plaintext }),
    console: consoleClient,
  };
}

const notificationsOf = (user: TestUser, query: { limit?: number; cursor?: string; unread?: 'true' | 'false' } = {}) =>
  unwrap(user.console.GET('/api/notifications', { params: { query } }));

/** Visits are logged after their answer, with their notifications in the same statement: wait for the log. */
async function logged(user: TestUser, shareId: string, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await unwrap(
      user.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: shareId }, query: { limit: 200 } } }),
    );
    if (page.visits.length === count) return;
    if (page.visits.length > count) throw new Error(`expected ${count} logged visits, got ${page.visits.length}`);
    if (Date.now() > deadline) throw new Error(`only ${page.visits.length} of ${count} visits logged`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function visit(baseUrl: string, path: string, agent = CHROME): Promise<void> {
  const answer = await new HttpVisitor(baseUrl, agent).get(path, client());
  expect(isDocument(answer)).toBe(true);
}

describe('notifications of share visits, with two api replicas, a worker and a real SMTP receiver', () => {
  let smtp: SmtpReceiver;
  let replicas: RunningApp[];
  let worker: RunningApp;
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    const [databaseUrl, redisUrl] = await Promise.all([createMachineDatabase(), allocateRedisDb()]);
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SESSION_SECRET: `notifications-session-secret-${Date.now()}-0123456789`,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sharedown <noreply@sharedown.test>',
      TRUST_PROXY: '127.0.0.1',
    };
    // Started together, as an orchestrator would: migrations take turns under their lock.
    [a, b, worker] = await Promise.all([
      startApp({ backend: 'services', role: 'api', env }),
      startApp({ backend: 'services', role: 'api', env }),
      startApp({ backend: 'services', role: 'worker', env }),
    ]);
    replicas = [a, b];
  });
  afterAll(async () => {
    await Promise.all([a?.cleanup(), b?.cleanup(), worker?.cleanup()]);
    await smtp?.stop();
  });

  /** A fresh owner with one document shared with `input`; the view path. */
  async function owned(input: ShareInput): Promise<{ owner: TestUser; shareId: string; path: string; fileId: string }> {
    const owner = await provenUser(a, smtp, address('owner'));
    const doc = await upload(a, owner, 'quarterly plan.md', '# Plan\n\nread me');
    const { share: created, url } = await share(owner, doc.fileId, input);
    return { owner, shareId: created.id, path: new URL(url).pathname, fileId: doc.fileId };
  }

  it('first: 40 parallel first visits over two replicas make exactly one notification and one e-mail', async () => {
    const { owner, shareId, path } = await owned({ notify: 'first' });
    await Promise.all(Array.from({ length: 40 }, (_, i) => visit(replicas[i % 2]!.baseUrl, path)));
    await logged(owner, shareId, 40);
    await drainQueues(worker);

    const { notifications, unreadCount, nextCursor } = await notificationsOf(owner);
    expect(unreadCount).toBe(1);
    expect(nextCursor).toBeNull();
    expect(notifications).toHaveLength(1);
    const [first] = notifications;
    expect(Object.keys(first!).sort()).toEqual(['createdAt', 'data', 'fileName', 'id', 'kind', 'readAt', 'shareId']);
    expect(first).toMatchObject({ kind: 'first_visit', shareId, fileName: 'quarterly plan.md', readAt: null });
    expect(first!.data).toMatchObject({ browser: 'Chrome', device: 'desktop', referer: null });
    expect(first!.data.ipPrefix).toMatch(/^198\.51\.\d+\.0\/24$/);
    expect(first!.data.visitCount).toBeGreaterThanOrEqual(1);

    const mails = smtp.to(owner.email).filter((mail) => mail.subject.includes('First visit'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('quarterly plan.md');
    expect(mails[0]!.text).toContain(`/shares/${shareId}`);
    expect(mails[0]!.text).toContain(first!.data.ipPrefix!);

    // Ever: later visits, on either replica, tell nothing more.
    await visit(b.baseUrl, path);
    await logged(owner, shareId, 41);
    await drainQueues(worker);
    expect((await notificationsOf(owner)).notifications).toHaveLength(1);
    expect(smtp.to(owner.email).filter((mail) => mail.subject.includes('First visit'))).toHaveLength(1);
  });

  it('every: 40 visits from one client make 40 notifications but 10 e-mails, and the rest one summary e-mail', async () => {
    const { owner, shareId, path } = await owned({ notify: 'every' });
    const sameClient = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 40; i++) {
      expect(isDocument(await new HttpVisitor(replicas[i % 2]!.baseUrl).get(path, sameClient))).toBe(true);
    }
    await logged(owner, shareId, 40);
    expect((await notificationsOf(owner, { limit: 100 })).notifications).toHaveLength(40);

    // Every visit's mail job settles: ten mails, thirty visits folded for the share's summary.
    const folded = async () =>
      (
        await sql<{ n: number }>(
          worker,
          "SELECT count(*)::int AS n FROM notifications WHERE share_id = $1 AND mail_state = 'folded'",
          [shareId],
        )
      )[0]!.n;
    await expect.poll(folded, { timeout: 30_000 }).toBe(30);
    await drainQueues(worker, { queues: ['webhooks', 'scan', 'notifications'] });
    const visitMails = () => smtp.to(owner.email).filter((mail) => mail.subject.includes('New visit'));
    await expect.poll(() => visitMails().length, { timeout: 20_000 }).toBe(10);

    // The summary goes a few seconds after the burst began, once, with every folded visit in it.
    await expect
      .poll(() => smtp.to(owner.email).filter((mail) => mail.subject.includes('more visits')).length, {
        timeout: 45_000,
      })
      .toBe(1);
    await drainQueues(worker);
    const summaries = smtp.to(owner.email).filter((mail) => mail.subject.includes('more visits'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.subject).toContain('30 more visits: quarterly plan.md');
    expect(visitMails()).toHaveLength(10);
    expect(await folded()).toBe(0);
  });

  it('every: N visits by people make N notifications and N e-mails; automated visits, link previews and HEAD none', async () => {
    const { owner, shareId, path } = await owned({ notify: 'every' });
    // A link preview and a HEAD are answered but never logged nor notified.
    const preview = await new HttpVisitor(a.baseUrl, SLACK).get(path, client());
    expect(preview.status).toBe(200);
    expect(isDocument(preview)).toBe(false);
    expect((await new HttpVisitor(a.baseUrl).head(path)).status).toBe(200);
    await visit(a.baseUrl, path, CURL);
    await logged(owner, shareId, 1);
    await Promise.all(Array.from({ length: 6 }, (_, i) => visit(replicas[i % 2]!.baseUrl, path)));
    await logged(owner, shareId, 7);
    await drainQueues(worker);

    const { notifications, unreadCount } = await notificationsOf(owner);
    expect(notifications).toHaveLength(6);
    expect(unreadCount).toBe(6);
    expect(new Set(notifications.map((n) => n.kind))).toEqual(new Set(['visit']));
    expect(notifications.map((n) => n.data.visitCount).sort((x, y) => x! - y!)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(smtp.to(owner.email).filter((mail) => mail.subject.includes('New visit'))).toHaveLength(6);

    // Pages, newest first.
    const page1 = await notificationsOf(owner, { limit: 4 });
    expect(page1.notifications).toHaveLength(4);
    const page2 = await notificationsOf(owner, { limit: 4, cursor: page1.nextCursor! });
    expect(page2.nextCursor).toBeNull();
    expect([...page1.notifications, ...page2.notifications].map((n) => n.id)).toEqual(notifications.map((n) => n.id));

    // Marking read: one, then the rest.
    expect(await unwrap(owner.console.POST('/api/notifications/read', { body: { ids: [notifications[0]!.id] } }))).toEqual({
      unreadCount: 5,
    });
    const unread = await notificationsOf(owner, { unread: 'true' });
    expect(unread.notifications.map((n) => n.id)).toEqual(notifications.slice(1).map((n) => n.id));
    expect((await notificationsOf(owner)).notifications[0]!.readAt).not.toBeNull();
    expect(await unwrap(owner.console.POST('/api/notifications/read', { body: {} }))).toEqual({ unreadCount: 0 });
    expect((await notificationsOf(owner, { unread: 'true' })).notifications).toEqual([]);
  });

  it('refused visits notify nothing; the admitted one after them does', async () => {
    const { owner, shareId, path } = await owned({ notify: 'every', password: 'open-sesame' });
    const visitor = new HttpVisitor(a.baseUrl);
    expect((await visitor.get(path, client())).status).toBe(401);
    expect((await visitor.post(path, { action: 'password', password: 'wrong-guess' }, client())).status).not.toBe(303);
    expect((await visitor.post(path, { action: 'password', password: 'open-sesame' }, client())).status).toBe(303);
    expect(isDocument(await visitor.get(path, client()))).toBe(true);
    await logged(owner, shareId, 1);
    const { notifications } = await notificationsOf(owner);
    expect(notifications.map((n) => [n.kind, n.data.visitCount])).toEqual([['visit', 1]]);
  });

  it('off (the default): visits notify nothing and mail nothing', async () => {
    const { owner, shareId, path } = await owned({});
    expect((await unwrap(owner.api.GET('/api/v1/shares/{id}', { params: { path: { id: shareId } } }))).notify).toBeUndefined();
    await Promise.all([visit(a.baseUrl, path), visit(b.baseUrl, path)]);
    await logged(owner, shareId, 2);
    await drainQueues(worker);
    expect(await notificationsOf(owner)).toEqual({ notifications: [], unreadCount: 0, nextCursor: null });
    expect(smtp.to(owner.email).filter((mail) => !mail.subject.includes('Sign-in code'))).toEqual([]);
  });

  it('a PATCH of notify takes effect on the next visit, on any replica, and is recorded', async () => {
    const { owner, shareId, path } = await owned({ notify: 'off' });
    await visit(a.baseUrl, path);
    await logged(owner, shareId, 1);
    const edited = await unwrap(
      owner.console.PATCH('/api/console/shares/{id}', { params: { path: { id: shareId } }, body: { notify: 'every' } }),
    );
    expect(edited.notify).toBe('every');
    await visit(b.baseUrl, path);
    await logged(owner, shareId, 2);
    const { notifications } = await notificationsOf(owner);
    expect(notifications.map((n) => [n.kind, n.data.visitCount])).toEqual([['visit', 2]]);
    const changes = await sql<{ changes: unknown }>(a, 'SELECT changes FROM share_policy_changes WHERE share_id = $1', [shareId]);
    expect(changes).toEqual([{ changes: { notify: 'every' } }]);

    const refused = await owner.console.PATCH('/api/console/shares/{id}', {
      params: { path: { id: shareId } },
      body: { notify: 'weekly' as 'daily' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'VALIDATION', field: 'notify' });

    await unwrap(owner.console.PATCH('/api/console/shares/{id}', { params: { path: { id: shareId } }, body: { notify: 'off' } }));
    await visit(a.baseUrl, path);
    await logged(owner, shareId, 3);
    expect((await notificationsOf(owner)).notifications).toHaveLength(1);
  });

  it('daily: the digest of a day is written once, even when two runs race, and skipped for a day without visits', async () => {
    const { owner, shareId, path } = await owned({ notify: 'daily' });
    await Promise.all([visit(a.baseUrl, path), visit(b.baseUrl, path), visit(a.baseUrl, path), visit(b.baseUrl, path, CURL)]);
    await logged(owner, shareId, 4);
    await drainQueues(worker);
    expect((await notificationsOf(owner)).notifications).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { Queue } = apiRequire('bullmq') as {
      Queue: new (
        name: string,
        options: { connection: Record<string, unknown> },
      ) => { add(name: string, data: unknown): Promise<unknown>; close(): Promise<void> };
    };
    const url = new URL(worker.env.REDIS_URL!);
    const queue = new Queue('notifications', {
      connection: { host: url.hostname, port: Number(url.port), db: Number(url.pathname.slice(1)) },
    });
    try {
      await Promise.all([
        queue.add('digest', { day: today }),
        queue.add('digest', { day: today }),
        queue.add('digest', { day: yesterday }),
      ]);
      await drainQueues(worker);
      await queue.add('digest', { day: today });
      await drainQueues(worker);
    } finally {
      await queue.close();
    }

    const { notifications } = await notificationsOf(owner);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: 'daily_digest',
      shareId: null,
      fileName: null,
      data: {
        day: today,
        visits: 3,
        automatedVisits: 1,
        shares: [{ shareId, fileName: 'quarterly plan.md', visits: 3, automatedVisits: 1 }],
      },
    });
    const mails = smtp.to(owner.email).filter((mail) => mail.subject.includes('Daily visits'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('quarterly plan.md');
  });

  it("is the owner's alone: another account lists nothing, marks nothing and edits nothing", async () => {
    const { owner, shareId, path } = await owned({ notify: 'every' });
    const other = await provenUser(a, smtp, address('other'));
    await visit(a.baseUrl, path);
    await logged(owner, shareId, 1);
    const [mine] = (await notificationsOf(owner)).notifications;

    expect(await notificationsOf(other)).toEqual({ notifications: [], unreadCount: 0, nextCursor: null });
    expect(await unwrap(other.console.POST('/api/notifications/read', { body: { ids: [mine!.id] } }))).toEqual({
      unreadCount: 0,
    });
    expect((await notificationsOf(owner)).unreadCount).toBe(1);
    const edit = await other.console.PATCH('/api/console/shares/{id}', {
      params: { path: { id: shareId } },
      body: { notify: 'off' },
    });
    expect(edit.response.status).toBe(404);

    // Malformed requests name their field.
    const badLimit = await owner.console.GET('/api/notifications', { params: { query: { limit: 0 } } });
    expect(badLimit.response.status).toBe(400);
    expect(badLimit.error).toMatchObject({ code: 'VALIDATION', field: 'limit' });
    const badCursor = await owner.console.GET('/api/notifications', { params: { query: { cursor: 'bm90LWEtY3Vyc29y' } } });
    expect(badCursor.error).toMatchObject({ code: 'VALIDATION', field: 'cursor' });
    const badIds = await owner.console.POST('/api/notifications/read', { body: { ids: ['not-an-id'] } });
    expect(badIds.response.status).toBe(400);
    expect(badIds.error).toMatchObject({ code: 'VALIDATION', field: 'ids' });

    // Console routes: a bearer token is refused.
    const bearer = await owner.api.GET('/api/notifications', { params: { query: {} } });
    expect(bearer.response.status).toBe(403);
    const bearerRead = await owner.api.POST('/api/notifications/read', { body: {} });
    expect(bearerRead.response.status).toBe(403);
  });

  it('is settable from the REST API and the CLI', async () => {
    const owner = await provenUser(a, smtp, address('cli'));
    const doc = await upload(a, owner, 'cli.md', '# CLI');
    const refused = await owner.api.POST('/api/v1/shares', { body: { fileId: doc.fileId, notify: 'hourly' as 'daily' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'VALIDATION', field: 'notify' });

    const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', SHAREDOWN_URL: a.baseUrl, SHAREDOWN_TOKEN: owner.token };
    const run = (args: string[]) => promisify(execFile)(process.execPath, [CLI_BIN, ...args], { env });
    expect((await run(['shares', 'create', '--help'])).stdout).toMatch(/--notify <when>.*\n?.*first/);
    const created = JSON.parse((await run(['shares', 'create', doc.fileId, '--notify', 'every', '--json'])).stdout) as {
      share: { notify: string };
    };
    expect(created.share.notify).toBe('every');
  });
});

describe('notifications without SMTP', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ backend: 'services' });
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  it('are listed in the console and nothing is mailed or fails', async () => {
    const owner = await createUser(app.baseUrl);
    const doc = await upload(app, owner, 'quiet.md', '# Quiet');
    const { share: created, url } = await share(owner, doc.fileId, { notify: 'first' });
    await visit(app.baseUrl, new URL(url).pathname);
    await logged(owner, created.id, 1);
    await drainQueues(app);
    const { notifications } = await notificationsOf(owner);
    expect(notifications.map((n) => n.kind)).toEqual(['first_visit']);
    const mailJobs = await sql<{ n: number }>(app, "SELECT count(*)::int AS n FROM notifications WHERE kind = 'first_visit'");
    expect(mailJobs).toEqual([{ n: 1 }]);
    expect(app.logs()).not.toMatch(/notification mail not queued|mail job/);
  });
});
