import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { documentForm, sql } from '../support/uploads.js';

/** Kills every other connection to the app's database, repeatedly, for `ms` milliseconds. */
async function terminateBackendsFor(databaseUrl: string, ms: number): Promise<number> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  let killed = 0;
  const until = Date.now() + ms;
  try {
    while (Date.now() < until) {
      const result = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      killed += result.rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.end();
  }
  return killed;
}

describe('PostgreSQL connections lost', () => {
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startApp();
    user = await createUser(app.baseUrl);
  });
  afterAll(async () => {
    if (app?.process.exitCode !== null) console.log(app?.logs());
    await app?.cleanup();
  });

  it('answers 503 UNAVAILABLE envelopes while connections die, then recovers without a restart', async () => {
    const outage = terminateBackendsFor(await app.databaseUrl(), 3000);
    const statuses: number[] = [];
    let uploads = 0;
    const bodies: string[] = [];
    const retryAfters: Array<string | null> = [];
    /** Uploads the service said it stored: their file and share ids. */
    const stored: Array<{ file: { id: string; name: string }; share: { id: string } }> = [];
    const deadline = Date.now() + 3000;
    // During the outage, then on until an upload has been stored (the check of stored uploads
    // below needs one): on a slow machine every upload begun while connections die every 100 ms
    // may meet a dead one.
    const giveUp = Date.now() + 30_000;
    while (Date.now() < deadline || (stored.length === 0 && Date.now() < giveUp)) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, async (_, index) => {
          const response =
            index < 2
              ? await fetch(`${app.baseUrl}/api/v1/files`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${user.token}` },
                  body: documentForm(`outage-${uploads++}.md`, '# written during an outage', { share: '{"maxVisits": 5}' }),
                })
              : await fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });
          const body = await response.text();
          if (index < 2 && response.status === 200) stored.push(JSON.parse(body));
          return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
        }),
      );
      for (const { status, body, retryAfter } of batch) {
        statuses.push(status);
        bodies.push(body);
        retryAfters.push(retryAfter);
      }
    }
    expect(await outage).toBeGreaterThan(0);
    for (const [index, status] of statuses.entries()) {
      expect([200, 503]).toContain(status);
      if (status === 503) {
        expect(JSON.parse(bodies[index]!)).toEqual({ error: expect.any(String), code: 'UNAVAILABLE' });
        expect(retryAfters[index]).toMatch(/^\d+$/);
        expect(bodies[index]).not.toMatch(/terminat|SQL|postgres|at \S+\.js/i);
      }
    }
    expect(app.process.exitCode).toBeNull();

    let recovered = false;
    for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
      const me = await fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });
      const health = await fetch(`${app.baseUrl}/healthz`);
      recovered = me.status === 200 && health.status === 200;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);

    // Nothing half-written: every file has its version, quota matches.
    const [orphans] = await sql<{ files_without_version: number; quota_drift: string }>(
      await app.databaseUrl(),
      `SELECT (SELECT count(*) FROM files f WHERE NOT EXISTS (SELECT 1 FROM file_versions v WHERE v.file_id = f.id))::int AS files_without_version,
              (SELECT u.used_bytes - coalesce((SELECT sum(v.size_bytes) FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = u.id), 0)
                 FROM users u WHERE u.id = $1)::text AS quota_drift`,
      [user.userId],
    );
    expect(orphans).toEqual({ files_without_version: 0, quota_drift: '0' });
    // Every upload answered 200 is there with the share it was answered with.
    expect(stored.length).toBeGreaterThan(0);
    const found = await sql<{ file_id: string; name: string; share_id: string }>(
      await app.databaseUrl(),
      `SELECT f.id AS file_id, f.name, s.id AS share_id FROM files f JOIN shares s ON s.file_id = f.id
       WHERE f.id = ANY($1::uuid[]) AND f.deleted_at IS NULL`,
      [stored.map((answer) => answer.file.id)],
    );
    expect(found.map((row) => [row.file_id, row.name, row.share_id]).sort()).toEqual(
      stored.map((answer) => [answer.file.id, answer.file.name, answer.share.id]).sort(),
    );
    const uploadsWithShare = await sql<{ files: number; shares: number }>(
      await app.databaseUrl(),
      `SELECT (SELECT count(*) FROM files WHERE user_id = $1 AND name LIKE 'outage-%')::int AS files,
              (SELECT count(*) FROM shares s JOIN files f ON f.id = s.file_id WHERE f.user_id = $1 AND f.name LIKE 'outage-%')::int AS shares`,
      [user.userId],
    );
    expect(uploadsWithShare[0]!.shares).toBe(uploadsWithShare[0]!.files);
  });

  it('logs the failed viewer requests without their share token, ticket or query', async () => {
    const form = documentForm('secret-link.md', '# linked', { share: '{}' });
    const created = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    const { share, url } = (await created.json()) as { share: { token: string }; url: string };
    const path = new URL(url).pathname;
    const ticket = 'eyJ2IjoiYmxhaC1ibGFoIn0.c2VjcmV0LXNpZ25hdHVyZS10aWNrZXQ';
    const outage = terminateBackendsFor(await app.databaseUrl(), 3000);
    let failed = 0;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      const statuses = await Promise.all(
        [path, `${path}/report`, `/s/_bounce/return?ticket=${ticket}`, `/s/_bounce?next=${encodeURIComponent(path)}`].map(
          async (target) => {
            const response = await fetch(`${app.baseUrl}${target}`, { redirect: 'manual' });
            await response.arrayBuffer();
            return response.status;
          },
        ),
      );
      failed += statuses.filter((status) => status >= 500).length;
    }
    await outage;
    expect(failed).toBeGreaterThan(0);
    expect(app.logs()).toContain('/s/[redacted]/[redacted]');
    expect(app.logs()).not.toContain(share.token);
    expect(app.logs()).not.toContain(ticket);
  });
});
