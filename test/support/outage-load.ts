import type { RunningApp } from './app.js';
import { sql } from './browser.js';

/** One answer of the service under load, as a fault test judges it. */
export interface Answer {
  kind: string;
  /** 0: no HTTP answer at all (connection refused or reset, or aborted after the client's own bound). */
  status: number;
  ms: number;
  /** The envelope's code, for a JSON error answer. */
  code: string | null;
  retryAfter: string | null;
  body: string;
  /** When the request was sent, in ms since the epoch. */
  at: number;
}

/** The client's own bound: far above the 10 s a request may take, so a hang shows as a long answer, never a stuck test. */
const CLIENT_BOUND_MS = 20_000;

/** Sends one request and records how it ended and how long it took. */
export async function timed(kind: string, url: string, init: RequestInit = {}): Promise<Answer> {
  const at = Date.now();
  try {
    const response = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(CLIENT_BOUND_MS) });
    const body = await response.text();
    let code: string | null = null;
    if (response.status >= 400 && (response.headers.get('content-type') ?? '').includes('application/json')) {
      code = (JSON.parse(body) as { code?: string }).code ?? null;
    }
    return {
      kind,
      status: response.status,
      ms: Date.now() - at,
      code,
      retryAfter: response.headers.get('retry-after'),
      body,
      at,
    };
  } catch (error) {
    return { kind, status: 0, ms: Date.now() - at, code: null, retryAfter: null, body: String(error), at };
  }
}

/**
 * Runs `loops` request loops in parallel until `running()` turns false; each loop sends its next
 * request as soon as the previous one answered. Answers every request's outcome.
 */
export async function underLoad(
  loops: number,
  running: () => boolean,
  next: (loop: number) => Promise<Answer | null>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      while (running()) {
        const answer = await next(loop);
        if (answer) answers.push(answer);
      }
    }),
  );
  return answers;
}

/** Counts answers by `kind status[ code]`, for messages and reports. */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = `${answer.kind} ${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export interface HealthWatch {
  /** Every poll so far: when it was sent, its status (0: no answer). */
  readonly polls: ReadonlyArray<{ at: number; status: number; body: string }>;
  /** Resolves with the send time of the first 200 sent at or after `since`, or null after `withinMs`. */
  healthySince(since: number, withinMs: number): Promise<number | null>;
  stop(): Promise<void>;
}

/** Polls /healthz every `everyMs` until stopped. */
export function watchHealth(baseUrl: string, everyMs = 250): HealthWatch {
  const polls: Array<{ at: number; status: number; body: string }> = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const answer = await timed('healthz', `${baseUrl}/healthz`);
      polls.push({ at: answer.at, status: answer.status, body: answer.body });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    polls,
    async healthySince(since, withinMs) {
      const deadline = since + withinMs;
      for (;;) {
        const healthy = polls.find((poll) => poll.at >= since && poll.status === 200);
        if (healthy) return healthy.at;
        if (Date.now() > deadline + CLIENT_BOUND_MS || stopped) return null;
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once every file's current version is CLEAN; throws naming the others after `timeoutMs`.
 * Uploads answered during an outage are stored PENDING and queued once the queue is back.
 */
export async function scansClean(app: RunningApp, fileIds: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const unsettled = await sql<{ name: string; scan_status: string; scan_attempts: number }>(
      app,
      `SELECT f.name, v.scan_status, v.scan_attempts FROM files f JOIN file_versions v ON v.id = f.current_version_id
       WHERE f.id = ANY($1::uuid[]) AND v.scan_status <> 'CLEAN'`,
      [fileIds],
    );
    if (!unsettled.length) return;
    if (Date.now() > deadline) throw new Error(`not CLEAN after ${timeoutMs} ms: ${JSON.stringify(unsettled)}`);
    await sleep(250);
  }
}
