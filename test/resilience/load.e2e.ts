import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';

// Two minutes by default, as the resilience plan states; LOAD_SECONDS shortens it for local runs.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 120);
const WORKERS = 16;

async function rssMiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

describe(`mixed load for ${SECONDS} s`, () => {
  let app: RunningApp;
  let user: TestUser;
  const tokens: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    user = await createUser(app.baseUrl);
    for (let i = 0; i < 8; i++) {
      tokens.push(
        (await user.console.POST('/api/tokens', { body: { name: `load${i}`, rateLimitPerMinute: 600 } })).data!.plaintext,
      );
    }
  });
  afterAll(async () => app?.cleanup());

  async function upload(token: string, name: string, content: string, share?: object) {
    const form = new FormData();
    form.set('file', new Blob([content], { type: 'text/markdown' }), name);
    if (share) form.set('share', JSON.stringify(share));
    const response = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: await response.json() };
  }

  async function waitClean(fileId: string) {
    for (let i = 0; i < 100; i++) {
      const file = await (
        await fetch(`${app.baseUrl}/api/v1/files/${fileId}`, { headers: { authorization: `Bearer ${tokens[0]}` } })
      ).json();
      if (file.scanStatus === 'CLEAN') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('file never became CLEAN');
  }

  it(
    'serves mixed traffic with zero 5xx, exact counts and stable memory',
    async () => {
      const document = `# Load\n\n${'Some **markdown** text with `code` and a [link](https://example.com).\n\n'.repeat(200)}`;
      const open = await upload(tokens[0]!, 'open.md', document, {});
      const capped = await upload(tokens[0]!, 'capped.md', document, { maxVisits: 150 });
      expect(open.status).toBe(200);
      expect(capped.status).toBe(200);
      await waitClean(open.body.file.id);
      await waitClean(capped.body.file.id);

      const statuses = new Map<number, number>();
      const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
      let openViews = 0;
      let cappedViews = 0;
      let uploads = 0;
      const rssStart = await rssMiB(app.process.pid!);
      const rssSamples: number[] = [];
      const sampler = setInterval(() => void rssMiB(app.process.pid!).then((value) => rssSamples.push(value)), 2000);
      const deadline = Date.now() + SECONDS * 1000;

      await Promise.all(
        Array.from({ length: WORKERS }, async (_, worker) => {
          let step = 0;
          while (Date.now() < deadline) {
            step += 1;
            const token = tokens[(worker + step) % tokens.length]!;
            const kind = step % 10;
            if (kind < 6) {
              const response = await fetch(open.body.url, { headers: { 'user-agent': `load-${worker}` } });
              await response.arrayBuffer();
              count(response.status);
              if (response.status === 200) openViews += 1;
            } else if (kind === 6) {
              const response = await fetch(capped.body.url, { headers: { 'user-agent': `load-${worker}` } });
              await response.arrayBuffer();
              count(response.status);
              if (response.status === 200) cappedViews += 1;
            } else if (kind === 7) {
              const result = await upload(
                token,
                `w${worker}-${step}.md`,
                `# ${worker}/${step}\n\nbody\n`,
                step % 20 === 7 ? { oneTime: true } : undefined,
              );
              count(result.status);
              if (result.status === 200) uploads += 1;
            } else if (kind === 8) {
              const response = await fetch(`${app.baseUrl}/api/v1/validate`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ content: `<p>unclosed ${step}`, kind: 'HTML' }),
              });
              await response.arrayBuffer();
              count(response.status);
            } else {
              const response = await fetch(`${app.baseUrl}/api/v1/shares`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ fileId: open.body.file.id, maxVisits: 3 }),
              });
              await response.arrayBuffer();
              count(response.status);
            }
          }
        }),
      );
      clearInterval(sampler);

      const fiveHundreds = [...statuses.entries()].filter(([status]) => status >= 500);
      expect(fiveHundreds, JSON.stringify([...statuses.entries()])).toEqual([]);
      expect(app.process.exitCode).toBeNull();

      // The load tokens may have emptied their per-minute buckets (429 is a correct answer under this load):
      // read the counts with a token of its own.
      const reader = (await user.console.POST('/api/tokens', { body: { name: 'reader' } })).data!.plaintext;
      const readShare = async (id: string) => {
        const response = await fetch(`${app.baseUrl}/api/v1/shares/${id}`, { headers: { authorization: `Bearer ${reader}` } });
        expect(response.status).toBe(200);
        return response.json();
      };
      const openShare = await readShare(open.body.share.id);
      const cappedShare = await readShare(capped.body.share.id);
      expect(openShare.visitCount).toBe(openViews);
      expect(cappedViews).toBeLessThanOrEqual(150);
      expect(cappedShare.visitCount).toBe(cappedViews);
      if (cappedViews === 150) expect(cappedShare.consumedAt).not.toBeNull();

      const db = new pg.Client({ connectionString: await app.databaseUrl() });
      await db.connect();
      try {
        const orphans = await db.query(
          `SELECT (SELECT count(*) FROM files f WHERE NOT EXISTS (SELECT 1 FROM file_versions v WHERE v.file_id = f.id))::int AS files_without_version,
                (SELECT count(*) FROM files WHERE user_id = $1)::int AS files`,
          [user.userId],
        );
        expect(orphans.rows[0].files_without_version).toBe(0);
        expect(orphans.rows[0].files).toBe(uploads + 2);
        const used = await db.query(
          `SELECT used_bytes::bigint AS used, (SELECT sum(v.size_bytes) FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = $1)::bigint AS stored FROM users WHERE id = $1`,
          [user.userId],
        );
        expect(used.rows[0].used).toBe(used.rows[0].stored);
      } finally {
        await db.end();
      }

      // Memory: the second half of the run must not keep growing past the first half's peak by much.
      const half = Math.floor(rssSamples.length / 2);
      const firstPeak = Math.max(rssStart, ...rssSamples.slice(0, half));
      const secondPeak = Math.max(...rssSamples.slice(half));
      console.log(
        `load: ${SECONDS}s, statuses ${JSON.stringify(Object.fromEntries(statuses))}, open views ${openViews}, capped ${cappedViews}, uploads ${uploads}, RSS start ${rssStart.toFixed(0)} MiB, first-half peak ${firstPeak.toFixed(0)} MiB, second-half peak ${secondPeak.toFixed(0)} MiB`,
      );
      expect(secondPeak).toBeLessThan(firstPeak * 1.5 + 64);
    },
    (SECONDS + 120) * 1000,
  );
});
