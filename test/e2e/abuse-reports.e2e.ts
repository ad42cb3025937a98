import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap, type components } from '@sharedown/contract';
import { createMachineDatabase, createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, getShare, isDocument, share, sql, upload, type UploadedDocument } from '../support/browser.js';

type AdminReport = components['schemas']['AdminReportDto'];

const METRICS_TOKEN = 'metrics-token-for-the-abuse-report-suite';
const ADMIN_EMAIL = `moderator${process.pid}@example.com`;
const run = promisify(execFile);
const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const BACKUP_CLI = fileURLToPath(new URL('../../apps/api/dist/backup/backup-cli.js', import.meta.url));

/** Each report comes from its own network (the app trusts the loopback proxy), so the hourly throttle only bites where a test means it to. */
let network = 0;
function nextAddress(): string {
  network += 1;
  return `198.51.${network}.${(network % 200) + 7}`;
}

describe('abuse reports', () => {
  let app: RunningApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;
  const visitor = () => new HttpVisitor(app.baseUrl);

  /** Files a report through the viewer's form from `address`; answers the HTTP status. */
  async function fileReport(url: string, reason: string, address = nextAddress()): Promise<number> {
    const answer = await visitor().post(`${new URL(url).pathname}/report`, { reason }, { 'x-forwarded-for': address });
    return answer.status;
  }

  async function queue(status: 'open' | 'resolved' | 'all' = 'all'): Promise<AdminReport[]> {
    return (await unwrap(admin.console.GET('/api/admin/reports', { params: { query: { status, limit: 200 } } }))).reports;
  }

  async function reportsOfShare(shareId: string): Promise<AdminReport[]> {
    return (await queue()).filter((report) => report.shareId === shareId);
  }

  function resolve(id: string, action: 'dismiss' | 'disable_share' | 'disable_owner', as = admin) {
    return as.console.POST('/api/admin/reports/{id}/resolve', { params: { path: { id } }, body: { action } });
  }

  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1', ADMIN_EMAILS: ADMIN_EMAIL, METRICS_TOKEN } });
    admin = await createUser(app.baseUrl, { email: ADMIN_EMAIL });
    alice = await createUser(app.baseUrl);
    bob = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'reported.md', '# Reported\n\nsomething to report');
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  it('shows a report filed with the viewer form in the administrators’ queue, with its masked network', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    expect(await fileReport(url, 'Phishing for bank logins', '203.0.113.77')).toBe(200);

    const [report] = await reportsOfShare(created.id);
    expect(report).toEqual({
      id: expect.any(String),
      shareId: created.id,
      shareToken: created.token,
      fileName: 'reported.md',
      shareState: 'active',
      owner: { id: alice.userId, email: alice.email, segment: alice.segment, disabled: false },
      reason: 'Phishing for bank logins',
      ipPrefix: '203.0.113.0/24',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
      openReportsOnShare: 1,
    });
    expect(JSON.stringify(report)).not.toContain('203.0.113.77');
    expect(await unwrap(admin.console.GET('/api/admin/reports/{id}', { params: { path: { id: report!.id } } }))).toEqual(report);
    expect((await queue('open')).map((open) => open.id)).toContain(report!.id);
    expect((await queue('resolved')).map((resolved) => resolved.id)).not.toContain(report!.id);
  });

  it('refuses everyone but an administrator’s console session: another account 403, a bearer token 403, nobody 401', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    expect(await fileReport(url, 'not for their eyes')).toBe(200);
    const [report] = await reportsOfShare(created.id);
    const id = report!.id;
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    for (const [client, status] of [
      [alice.console, 403],
      [admin.api, 403],
      [anonymous, 401],
    ] as const) {
      expect((await client.GET('/api/admin/reports')).response.status).toBe(status);
      expect((await client.GET('/api/admin/reports/{id}', { params: { path: { id } } })).response.status).toBe(status);
      const attempt = await client.POST('/api/admin/reports/{id}/resolve', {
        params: { path: { id } },
        body: { action: 'dismiss' },
      });
      expect(attempt.response.status).toBe(status);
    }
    expect((await reportsOfShare(created.id))[0]!.status).toBe('open');
    expect(
      (await admin.console.GET('/api/admin/reports', { params: { query: { status: 'closed' as 'open' } } })).response.status,
    ).toBe(400);
    expect((await resolve(id, 'ban' as 'dismiss')).response.status).toBe(400);
    const unknown = await admin.console.GET('/api/admin/reports/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(unknown.response.status).toBe(404);
  });

  it('dismisses a report: the link keeps working, the outcome names the administrator, and it is audited', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    expect(await fileReport(url, 'I just do not like it')).toBe(200);
    const [report] = await reportsOfShare(created.id);
    const resolved = await unwrap(resolve(report!.id, 'dismiss'));
    expect(resolved).toMatchObject({
      id: report!.id,
      status: 'dismissed',
      resolvedAt: expect.stringMatching(/^\d{4}-/),
      resolvedBy: { id: admin.userId, email: admin.email },
      shareState: 'active',
      openReportsOnShare: 0,
    });
    expect((await resolve(report!.id, 'disable_share')).response.status).toBe(409);
    expect(isDocument(await visitor().get(new URL(url).pathname))).toBe(true);
    const trail = await unwrap(admin.console.GET('/api/audit', { params: { query: { limit: 50 } } }));
    expect(trail.events).toContainEqual(
      expect.objectContaining({ action: 'admin.report_dismissed', actorId: admin.userId, targetId: report!.id }),
    );
  });

  it('disable_share: the link answers 410 at once in every viewer language, counts nothing, and the owner sees it revoked for good', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    expect(isDocument(await visitor().get(path))).toBe(true);
    expect(await fileReport(url, 'Malware download page')).toBe(200);
    const [report] = await reportsOfShare(created.id);
    const visitsBefore = (await getShare(alice, created.id)).visitCount;

    const resolved = await unwrap(resolve(report!.id, 'disable_share'));
    expect(resolved).toMatchObject({ status: 'share_disabled', shareState: 'disabled' });

    const titles: Record<string, string> = {
      'zh-CN': '链接已停用',
      en: 'Link disabled',
      ja: 'リンクは無効化されました',
      de: 'Link gesperrt',
      fr: 'Lien désactivé',
      es: 'Enlace desactivado',
    };
    for (const [language, title] of Object.entries(titles)) {
      const refused = await visitor().get(path, { 'accept-language': language });
      expect(refused.status, language).toBe(410);
      expect(refused.body, language).toContain(title);
      expect(refused.body).not.toContain('something to report');
    }
    const after = await getShare(alice, created.id);
    expect(after.visitCount).toBe(visitsBefore);
    expect(after.revokedAt).not.toBeNull();
    expect(after.disabledAt).toEqual(expect.any(String));
    const listed = await unwrap(alice.console.GET('/api/console/shares', { params: { query: { status: 'revoked' } } }));
    expect(listed.shares.find((listedShare) => listedShare.id === created.id)).toMatchObject({ disabledAt: after.disabledAt });

    // Nothing the owner can do brings it back: editing is refused, revoking again keeps it disabled.
    const edit = await alice.console.PATCH('/api/console/shares/{id}', {
      params: { path: { id: created.id } },
      body: { maxVisits: 50 },
    });
    expect(edit.response.status).toBe(409);
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: created.id } } }));
    expect((await getShare(alice, created.id)).disabledAt).toBe(after.disabledAt);
    expect((await visitor().get(path)).status).toBe(410);
    expect((await getShare(alice, created.id)).visitCount).toBe(visitsBefore);
  });

  it('resolving one report closes every other open report of the same share with the same outcome, and no other share’s', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const other = await share(alice, doc.fileId);
    for (const reason of ['spam one', 'spam two', 'spam three']) expect(await fileReport(url, reason)).toBe(200);
    expect(await fileReport(other.url, 'unrelated')).toBe(200);
    const reports = await reportsOfShare(created.id);
    expect(reports.map((report) => report.openReportsOnShare)).toEqual([3, 3, 3]);

    await unwrap(resolve(reports[1]!.id, 'dismiss'));
    const after = await reportsOfShare(created.id);
    expect(after.map((report) => [report.status, report.resolvedBy?.id, report.openReportsOnShare])).toEqual([
      ['dismissed', admin.userId, 0],
      ['dismissed', admin.userId, 0],
      ['dismissed', admin.userId, 0],
    ]);
    expect((await reportsOfShare(other.share.id)).map((report) => report.status)).toEqual(['open']);
    for (const report of after) expect((await resolve(report.id, 'dismiss')).response.status).toBe(409);
  });

  it('20 administrators’ resolves of one report at once: exactly one 200, the other 19 get 409 CONFLICT', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    expect(await fileReport(url, 'raced report')).toBe(200);
    const [report] = await reportsOfShare(created.id);
    const actions = ['dismiss', 'disable_share'] as const;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => resolve(report!.id, actions[i % 2]!)));
    const statuses = answers.map((answer) => answer.response.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    const losers = answers.filter((answer) => answer.response.status === 409);
    // The report was found resolved, not a deadlock between the resolutions (that would be the generic lost race).
    for (const loser of losers) expect(loser.error).toMatchObject({ code: 'CONFLICT', error: '该举报已被处理' });
    const winner = answers.find((answer) => answer.response.status === 200)!.data!;
    const [stored] = await reportsOfShare(created.id);
    expect(stored).toMatchObject({ status: winner.status, resolvedAt: winner.resolvedAt });
    const audited = await sql<{ n: number }>(app, `SELECT count(*)::int AS n FROM audit_events WHERE target_id = $1`, [
      report!.id,
    ]);
    expect(audited).toEqual([{ n: 1 }]);
  });

  it('different reports of one share resolved at once with different actions: exactly one decision holds for all of them', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    for (const reason of ['first of three', 'second of three', 'third of three']) expect(await fileReport(url, reason)).toBe(200);
    const reports = await reportsOfShare(created.id);
    const actions = ['dismiss', 'disable_share', 'dismiss'] as const;
    const answers = await Promise.all(reports.map((report, i) => resolve(report.id, actions[i]!)));
    expect(answers.map((answer) => answer.response.status).sort()).toEqual([200, 409, 409]);
    // The losers found their report resolved: the share's lock made them take turns, no deadlock decided it.
    for (const loser of answers.filter((answer) => answer.response.status === 409)) {
      expect(loser.error).toMatchObject({ code: 'CONFLICT', error: '该举报已被处理' });
    }
    const winner = answers.find((answer) => answer.response.status === 200)!.data!;
    const after = await reportsOfShare(created.id);
    expect(new Set(after.map((report) => report.status))).toEqual(new Set([winner.status]));
    expect(new Set(after.map((report) => report.resolvedAt))).toEqual(new Set([winner.resolvedAt]));
  });

  it('disable_owner: the owner’s token answers 401, their sessions are gone and every link of theirs answers 410', async () => {
    const carol = await createUser(app.baseUrl);
    const carolDoc = await upload(app, carol, 'carol.md', '# Carol\n\nabusive');
    const reported = await share(carol, carolDoc.fileId);
    const untouched = await share(carol, carolDoc.fileId);
    expect(isDocument(await visitor().get(new URL(untouched.url).pathname))).toBe(true);
    expect(await fileReport(reported.url, 'Scam shop')).toBe(200);
    const [report] = await reportsOfShare(reported.share.id);

    const resolved = await unwrap(resolve(report!.id, 'disable_owner'));
    expect(resolved).toMatchObject({ status: 'owner_disabled', owner: { id: carol.userId, disabled: true } });

    expect((await carol.api.GET('/api/v1/shares')).response.status).toBe(401);
    expect((await carol.console.GET('/api/auth/session')).response.status).toBe(401);
    expect(await sql(app, 'SELECT 1 FROM sessions WHERE user_id = $1', [carol.userId])).toHaveLength(0);
    for (const link of [reported.url, untouched.url]) {
      const refused = await visitor().get(new URL(link).pathname, { 'accept-language': 'en' });
      expect(refused.status).toBe(410);
      expect(refused.body).toContain('Account disabled');
    }
    const trail = await sql<{ action: string; actor_id: string; user_id: string }>(
      app,
      `SELECT action, actor_id, user_id FROM audit_events WHERE action IN ('admin.user_disabled', 'admin.report_owner_disabled')
       AND (user_id = $1 OR target_id = $2) ORDER BY created_at`,
      [carol.userId, report!.id],
    );
    expect(trail).toEqual([
      { action: 'admin.user_disabled', actor_id: admin.userId, user_id: carol.userId },
      { action: 'admin.report_owner_disabled', actor_id: admin.userId, user_id: admin.userId },
    ]);
    // An administrator cannot disable their own account through a report on their own share.
    const adminDoc = await upload(app, admin, 'admin.md', '# mine');
    const own = await share(admin, adminDoc.fileId);
    expect(await fileReport(own.url, 'the administrator’s own link')).toBe(200);
    const [ownReport] = await reportsOfShare(own.share.id);
    expect((await resolve(ownReport!.id, 'disable_owner')).response.status).toBe(409);
    expect((await reportsOfShare(own.share.id))[0]!.status).toBe('open');
  });

  it('shows the owner the reports on their own share without the administrator; another account gets 404', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    expect(await fileReport(url, 'first complaint', '192.0.2.10')).toBe(200);
    expect(await fileReport(url, 'second complaint', '192.0.2.11')).toBe(200);
    const [newest] = await reportsOfShare(created.id);
    await unwrap(resolve(newest!.id, 'dismiss'));

    const seen = await unwrap(alice.api.GET('/api/v1/shares/{id}/reports', { params: { path: { id: created.id } } }));
    expect(seen.nextCursor).toBeNull();
    expect(seen.reports).toEqual([
      {
        id: expect.any(String),
        reason: 'second complaint',
        ipPrefix: '192.0.2.0/24',
        createdAt: expect.any(String),
        status: 'dismissed',
        resolvedAt: expect.any(String),
      },
      {
        id: expect.any(String),
        reason: 'first complaint',
        ipPrefix: '192.0.2.0/24',
        createdAt: expect.any(String),
        status: 'dismissed',
        resolvedAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(seen)).not.toContain(admin.userId);
    expect(JSON.stringify(seen)).not.toContain(admin.email);
    const paged = await unwrap(
      alice.console.GET('/api/console/shares/{id}/reports', { params: { path: { id: created.id }, query: { limit: 1 } } }),
    );
    expect(paged.reports.map((report) => report.reason)).toEqual(['second complaint']);
    const rest = await unwrap(
      alice.console.GET('/api/console/shares/{id}/reports', {
        params: { path: { id: created.id }, query: { limit: 1, cursor: paged.nextCursor! } },
      }),
    );
    expect(rest).toEqual({ reports: [expect.objectContaining({ reason: 'first complaint' })], nextCursor: null });

    const cliEnv = (who: TestUser) => ({
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmpdir(),
        XDG_CONFIG_HOME: join(tmpdir(), 'no-sharedown-config'),
        SHAREDOWN_URL: app.baseUrl,
        SHAREDOWN_TOKEN: who.token,
      },
    });
    const printed = await run(process.execPath, [CLI_BIN, 'shares', 'reports', created.id, '--json'], cliEnv(alice));
    expect(JSON.parse(printed.stdout)).toEqual(seen);
    const table = await run(process.execPath, [CLI_BIN, 'shares', 'reports', created.id], cliEnv(alice));
    const line = table.stdout.split('\n').find((row) => row.includes('second complaint'));
    expect(line).toMatch(/dismissed\W+192\.0\.2\.0\/24\W+second complaint/);
    await expect(run(process.execPath, [CLI_BIN, 'shares', 'reports', created.id], cliEnv(bob))).rejects.toMatchObject({
      code: expect.any(Number),
    });

    expect((await bob.api.GET('/api/v1/shares/{id}/reports', { params: { path: { id: created.id } } })).response.status).toBe(
      404,
    );
    expect(
      (await bob.console.GET('/api/console/shares/{id}/reports', { params: { path: { id: created.id } } })).response.status,
    ).toBe(404);
    expect((await alice.api.GET('/api/v1/shares/{id}/reports', { params: { path: { id: 'nope' } } })).response.status).toBe(404);
  });

  it('keeps a report visible to administrators after the owner deletes the reported file for good', async () => {
    const gone = await upload(app, alice, 'purged.md', '# going away');
    const { share: created, url } = await share(alice, gone.fileId);
    expect(await fileReport(url, 'report before the purge')).toBe(200);
    const [report] = await reportsOfShare(created.id);
    await unwrap(resolve(report!.id, 'disable_share'));
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: gone.fileId } } }));
    await unwrap(alice.console.DELETE('/api/console/trash/files/{id}', { params: { path: { id: gone.fileId } } }));
    const kept = await unwrap(admin.console.GET('/api/admin/reports/{id}', { params: { path: { id: report!.id } } }));
    expect(kept).toMatchObject({
      shareId: null,
      shareToken: created.token,
      fileName: 'purged.md',
      shareState: 'deleted',
      owner: { id: alice.userId },
      status: 'share_disabled',
      reason: 'report before the purge',
    });
  });

  it('still throttles reports: the 11th in an hour from one address is 429', async () => {
    const { url } = await share(alice, doc.fileId);
    const address = '100.64.9.9';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await fileReport(url, `report number ${i}`, address));
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  });

  it('counts reports filed and resolved by action in the metrics', async () => {
    const response = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const body = await response.text();
    const filed = Number(/^sharedown_abuse_reports_filed_total (\d+)/m.exec(body)?.[1]);
    const [{ n }] = await sql<{ n: number }>(app, 'SELECT count(*)::int AS n FROM share_reports');
    expect(filed).toBe(n);
    const resolved = (action: string) =>
      Number(new RegExp(`^sharedown_abuse_reports_resolved_total\\{action="${action}"\\} (\\d+)`, 'm').exec(body)?.[1] ?? 0);
    const stored = await sql<{ status: string; n: number }>(
      app,
      `SELECT status, count(*)::int AS n FROM share_reports GROUP BY status`,
    );
    const count = (status: string) => stored.find((row) => row.status === status)?.n ?? 0;
    expect(resolved('dismiss')).toBe(count('dismissed'));
    expect(resolved('disable_share')).toBe(count('share_disabled'));
    expect(resolved('disable_owner')).toBe(count('owner_disabled'));
  });

  it('carries reports with their resolution, and disabled shares, through a backup and restore', async () => {
    const work = await mkdtemp(join(tmpdir(), 'sharedown-reports-backup-'));
    await chmod(work, 0o755);
    const archive = join(work, 'reports.sdbackup');
    const cli = (args: string[], databaseUrl: string) =>
      run(process.execPath, [BACKUP_CLI, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', DATABASE_URL: databaseUrl, DATA_DIR: work },
        timeout: 120_000,
      });
    try {
      await cli(['backup', '--out', archive], await app.databaseUrl());
      const sections = gunzipSync(await readFile(archive))
        .toString('utf8')
        .split('\n')
        .filter((line) => line.startsWith('["table"'))
        .map((line) => JSON.parse(line) as [string, string, string[]]);
      const columns = (table: string) => sections.find((section) => section[1] === table)?.[2];
      expect(columns('share_reports')).toEqual(
        expect.arrayContaining(['status', 'resolved_at', 'resolved_by', 'owner_id', 'share_token', 'file_name']),
      );
      expect(columns('shares')).toContain('disabled_at');

      const target = await createMachineDatabase();
      await cli(['restore', archive], target);
      const pick = `SELECT r.id, r.status, r.resolved_at, r.resolved_by, r.share_id, r.share_token, r.owner_id, s.disabled_at
                    FROM share_reports r LEFT JOIN shares s ON s.id = r.share_id ORDER BY r.id`;
      const before = await sql(app, pick);
      const restored = await sql({ databaseUrl: async () => target } as RunningApp, pick);
      expect(restored).toEqual(before);
      expect(before.some((row) => row.status === 'share_disabled' && row.disabled_at !== null)).toBe(true);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
