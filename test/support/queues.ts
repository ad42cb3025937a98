import { createRequire } from 'node:module';
import pg from 'pg';
import type { RunningApp } from './app.js';

/** The service's BullMQ queues (apps/api/src/queue/queue-names.ts). */
export const QUEUES = ['scan', 'webhooks', 'mail', 'notifications'] as const;
export type QueueName = (typeof QUEUES)[number];

/** States of a job that has not settled yet: it will still run, or is running. */
const UNSETTLED = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children', 'paused'] as const;

interface BullQueue {
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  close(): Promise<void>;
}
type BullQueueClass = new (name: string, options: { connection: Record<string, unknown> }) => BullQueue;

// bullmq is a dependency of the api, not of the tests: load the api's own copy.
const apiRequire = createRequire(new URL('../../apps/api/package.json', import.meta.url));

/** Reads, per queue, how many jobs have not settled, from wherever the app keeps its queues. */
interface QueueReader {
  unsettled(): Promise<Record<QueueName, number>>;
  close(): Promise<void>;
}

/** BullMQ on Redis: the library's own counts, as the service's queues see them. */
function redisReader(redisUrl: string, queues: readonly QueueName[]): QueueReader {
  const { Queue } = apiRequire('bullmq') as { Queue: BullQueueClass };
  const url = new URL(redisUrl);
  const connection = {
    host: url.hostname,
    port: Number(url.port || 6379),
    db: Number(url.pathname.slice(1) || 0),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
  const opened = queues.map((name) => [name, new Queue(name, { connection })] as const);
  return {
    async unsettled() {
      const counts = {} as Record<QueueName, number>;
      for (const [name, queue] of opened) {
        const byState = await queue.getJobCounts(...UNSETTLED);
        counts[name] = Object.values(byState).reduce((sum, n) => sum + n, 0);
      }
      return counts;
    },
    async close() {
      await Promise.all(opened.map(([, queue]) => queue.close()));
    },
  };
}

/**
 * BullMQ's PostgreSQL backend: one `bullmq.job` row per job, `state` one of waiting (prioritized
 * is waiting with a priority), delayed, active, waiting-children, completed, failed.
 */
function postgresReader(databaseUrl: string, queues: readonly QueueName[]): QueueReader {
  const client = new pg.Client({ connectionString: databaseUrl });
  const connected = client.connect();
  return {
    async unsettled() {
      await connected;
      const counts = Object.fromEntries(queues.map((name) => [name, 0])) as Record<QueueName, number>;
      try {
        const { rows } = await client.query<{ queue: QueueName; n: number }>(
          `SELECT queue, count(*)::int AS n FROM bullmq.job
           WHERE queue = ANY($1) AND state IN ('waiting', 'delayed', 'active', 'waiting-children')
           GROUP BY queue`,
          [queues],
        );
        for (const row of rows) counts[row.queue] = row.n;
      } catch (error) {
        // No queue was ever opened by the app: its schema does not exist yet, so nothing is queued.
        if ((error as { code?: string }).code !== '42P01' && (error as { code?: string }).code !== '3F000') throw error;
      }
      return counts;
    },
    async close() {
      await connected.catch(() => undefined);
      await client.end();
    },
  };
}

export interface DrainOptions {
  /** Which queues to wait for (all of them unless told). */
  queues?: readonly QueueName[];
  /** How long the queues must stay idle in a row: work that follows an answer is queued a moment later. */
  settleMs?: number;
  /** Give up (and throw, naming what is still queued) after this long. */
  timeoutMs?: number;
}

/**
 * Resolves once the app's queues have no waiting, prioritized, delayed or active job and have
 * stayed so for `settleMs`. Assert "nothing (more) happened" after this, never after a sleep:
 * a job still queued or retrying makes this wait for it, however slow it is.
 */
export async function drainQueues(app: RunningApp, options: DrainOptions = {}): Promise<void> {
  const queues = options.queues ?? QUEUES;
  const settleMs = options.settleMs ?? 300;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const reader = app.env.REDIS_URL ? redisReader(app.env.REDIS_URL, queues) : postgresReader(await app.databaseUrl(), queues);
  try {
    const deadline = Date.now() + timeoutMs;
    let idleSince: number | undefined;
    for (;;) {
      const counts = await reader.unsettled();
      const busy = Object.values(counts).some((n) => n > 0);
      const now = Date.now();
      if (busy) idleSince = undefined;
      else if (idleSince === undefined) idleSince = now;
      else if (now - idleSince >= settleMs) return;
      if (now > deadline) throw new Error(`queues did not drain in ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await reader.close();
  }
}

/** Resolves once every job queued on `queue` so far has finished; throws after `timeoutMs`. */
export function drained(app: RunningApp, queue: QueueName, timeoutMs = 20_000): Promise<void> {
  return drainQueues(app, { queues: [queue], timeoutMs });
}
