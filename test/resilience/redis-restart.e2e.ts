import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { getShare, share, upload } from '../support/browser.js';
import { scansClean, sleep, tally, timed, underLoad, watchHealth, type Answer } from '../support/outage-load.js';
import { startRedis } from '../support/redis-server.js';
import { documentForm } from '../support/uploads.js';

const MARKER = 'Counted while Redis restarts.';
const CAP = 50;
const LOOPS = 20;
/** The bounds: no request answers later than this, and health is back within RECOVERY_MS of Redis. */
const HANG_MS = 10_000;
const RECOVERY_MS = 15_000;
const SLOW_RATE = 5;

const shown = (answer: Answer) => answer.status === 200 && answer.body.includes(MARKER);

/** Views need only PostgreSQL; everything that takes from a Redis bucket may be refused while it is gone. */
const ALLOWED: Record<string, number[]> = {
  view: [200],
  capped: [200, 410],
  me: [200, 429, 503],
  upload: [200, 429, 503],
  'console upload': [200],
};

/**
 * A private redis-server (REDIS_URL: rate-limit buckets and the queues) killed in the middle of
 * traffic and started again on the same port and append-only file, as production keeps Redis.
 * (Without persistence a restart forgets the jobs queued and not yet taken: the worker's sweeper
 * queues their scans again after a minute.)
 */
describe('Redis restarted under load', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let redisDir: string;
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    redisDir = await mkdtemp(join(tmpdir(), 'sharedown-redis-'));
    redis = await startRedis(undefined, { dataDir: redisDir });
    app = await startApp({ env: { REDIS_URL: redis.url } });
    user = await createUser(app.baseUrl, { rateLimitPerMinute: 600 });
  });
  afterAll(async () => {
    if (app && app.process.exitCode !== null) console.log(app.logs());
    await app?.cleanup();
    await redis?.stop();
    if (redisDir) await rm(redisDir, { recursive: true, force: true });
  });

  it('answers token calls 200, 429 or 503 and views as usual, never hangs, and its buckets and queues resume', async () => {
    const document = await upload(app, user, 'redis.md', `# Counted\n\n${MARKER}\n`);
    const open = await share(user, document.fileId);
    const capped = await share(user, document.fileId, { maxVisits: CAP });
    const warm = await timed('view', open.url);
    expect(shown(warm)).toBe(true);

    const health = watchHealth(app.baseUrl);
    const started = Date.now();
    const stopAt = started + 2_500;
    let restartedAt = Number.POSITIVE_INFINITY;
    let uploads = 0;
    const accepted: string[] = [];
    const bearer = { authorization: `Bearer ${user.token}` };
    const load = underLoad(
      LOOPS,
      () => Date.now() < Math.max(started + 8_000, restartedAt + 5_000),
      async (loop) => {
        const kind = loop % 5;
        if (kind <= 1) return timed('view', open.url);
        if (kind === 2) {
          if (Date.now() < stopAt - 1_000) return sleep(50).then(() => null);
          await sleep(150);
          return timed('capped', capped.url);
        }
        await sleep(100);
        if (kind === 3) return timed('me', `${app.baseUrl}/v1/me`, { headers: bearer });
        // A console upload takes from no bucket: it is stored, and its scan must be queued once Redis is back.
        const viaConsole = loop % 2 === 0;
        const answer = await timed(
          viaConsole ? 'console upload' : 'upload',
          `${app.baseUrl}/api${viaConsole ? '/console' : '/v1'}/files`,
          {
            method: 'POST',
            headers: viaConsole ? { cookie: user.cookie } : bearer,
            body: documentForm(`redis-${uploads++}.md`, '# uploaded while Redis restarts'),
          },
        );
        if (answer.status === 200) accepted.push((JSON.parse(answer.body) as { file: { id: string } }).file.id);
        return answer;
      },
    );

    await sleep(stopAt - Date.now());
    await redis.stop();
    const stoppedAt = Date.now();
    await sleep(4_000);
    redis = await startRedis(redis.port, { dataDir: redisDir });
    restartedAt = Date.now();
    const answers = await load;
    const healthyAt = await health.healthySince(restartedAt, RECOVERY_MS);
    await health.stop();
    console.log(
      `Redis restart: ${JSON.stringify({
        requests: answers.length,
        statuses: tally(answers),
        slowestMs: Math.max(...answers.map((answer) => answer.ms)),
        outageMs: restartedAt - stoppedAt,
        recoveryMs: healthyAt === null ? null : healthyAt - restartedAt,
      })}`,
    );

    expect(app.process.exitCode).toBeNull();
    for (const answer of answers) {
      expect(ALLOWED[answer.kind], `${answer.kind} answered ${answer.status}: ${answer.body.slice(0, 300)}`).toContain(
        answer.status,
      );
      expect(answer.ms, `${answer.kind} took ${answer.ms} ms`).toBeLessThanOrEqual(HANG_MS);
      if (answer.status === 503) {
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), code: 'UNAVAILABLE' });
      }
    }
    const during = (answer: Answer) => answer.at >= stoppedAt && answer.at < restartedAt;
    expect(answers.some((answer) => answer.kind === 'me' && answer.status === 503 && during(answer))).toBe(true);
    expect(answers.some((answer) => answer.kind === 'console upload' && answer.status === 200 && during(answer))).toBe(true);
    expect(health.polls.some((poll) => poll.status === 503 && poll.at >= stoppedAt && poll.at < restartedAt)).toBe(true);
    expect(answers.some((answer) => answer.kind === 'me' && answer.status === 200 && answer.at > restartedAt)).toBe(true);
    expect(healthyAt).not.toBeNull();
    expect(healthyAt! - restartedAt).toBeLessThanOrEqual(RECOVERY_MS);

    // Views never needed Redis: each shown one is counted, and the cap held.
    const views = answers.filter((answer) => answer.kind === 'view');
    expect((await getShare(user, open.share.id)).visitCount).toBe(views.filter(shown).length + 1);
    const cappedAfter = await getShare(user, capped.share.id);
    expect(cappedAfter.visitCount).toBe(answers.filter((answer) => answer.kind === 'capped' && shown(answer)).length);
    expect(cappedAfter.visitCount).toBeLessThanOrEqual(CAP);

    // The queues resume: what was stored during the outage and an upload after it are scanned.
    const after = await upload(app, user, 'after-redis.md', '# after the restart', undefined, 'none');
    await scansClean(app, [...accepted, after.fileId]);

    // The buckets resume: a slow token gets its few calls, then 429 with Retry-After.
    const slow = await createUser(app.baseUrl, { rateLimitPerMinute: SLOW_RATE });
    const calls = [];
    for (let i = 0; i <= SLOW_RATE; i++)
      calls.push(await timed('me', `${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${slow.token}` } }));
    expect(calls.map((call) => call.status)).toEqual([...Array<number>(SLOW_RATE).fill(200), 429]);
    expect(calls.at(-1)!.retryAfter).toMatch(/^\d+$/);
  }, 240_000);
});
