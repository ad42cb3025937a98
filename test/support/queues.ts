import { Redis } from 'ioredis';
import type { RunningApp } from './app.js';
import { sql } from './browser.js';

/** Jobs of `queue` not finished yet (waiting, active or delayed for a retry), on whichever backend the app uses. */
async function unfinished(app: RunningApp, queue: string): Promise<number> {
  if (app.env.REDIS_URL) {
    const redis = new Redis(app.env.REDIS_URL);
    try {
      const [wait, active, delayed, prioritized] = await Promise.all([
        redis.llen(`bull:${queue}:wait`),
        redis.llen(`bull:${queue}:active`),
        redis.zcard(`bull:${queue}:delayed`),
        redis.zcard(`bull:${queue}:prioritized`),
      ]);
      return wait + active + delayed + prioritized;
    } finally {
      redis.disconnect();
    }
  }
  const [row] = await sql<{ n: number }>(
    app,
    `SELECT count(*)::int AS n FROM bullmq.job WHERE queue = $1 AND state IN ('waiting', 'active', 'delayed')`,
    [queue],
  );
  return row!.n;
}

/** Resolves once every job queued on `queue` so far has finished; throws after `timeoutMs`. */
export async function drained(app: RunningApp, queue: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await unfinished(app, queue)) > 0) {
    if (Date.now() > deadline) throw new Error(`queue ${queue} did not drain`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
