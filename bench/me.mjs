// GET /v1/me with a 600/min token (auth + rate-limit bucket) beside a bare Fastify route.
// The token bucket would empty within a second at full speed, so the load is a fixed
// number of sequential-in-parallel calls that stays inside the bucket.
import { fileURLToPath } from 'node:url';
import { createUser, percentile, printTable, ratio, startApi, startBaseline } from './support.mjs';

async function timeCalls(url, headers, count, concurrency) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { rps: count / ((performance.now() - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function run() {
  const api = await startApi();
  try {
    const user = await createUser(api.baseUrl);
    const me = await (await fetch(`${api.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } })).text();
    const baseline = await startBaseline(me, 'application/json');
    try {
      // 590 calls: the bucket holds 600 and one was spent above.
      const measured = await timeCalls(`${api.baseUrl}/v1/me`, { authorization: `Bearer ${user.token}` }, 590, 10);
      const bare = await timeCalls(baseline.url, {}, 590, 10);
      const rows = [
        { case: 'GET /v1/me (token 600/min)', 'p50 ms': measured.p50.toFixed(2), 'p99 ms': measured.p99.toFixed(2), 'req/s': measured.rps.toFixed(0) },
        { case: 'bare Fastify, same bytes', 'p50 ms': bare.p50.toFixed(2), 'p99 ms': bare.p99.toFixed(2), 'req/s': bare.rps.toFixed(0) },
        { case: 'ratio (baseline p50 / me p50)', 'p50 ms': ratio(bare.p50, measured.p50), 'p99 ms': ratio(bare.p99, measured.p99), 'req/s': ratio(measured.rps, bare.rps) },
      ];
      printTable('GET /v1/me latency, 10 concurrent callers, 590 calls', rows);
      return rows;
    } finally {
      await baseline.stop();
    }
  } finally {
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
