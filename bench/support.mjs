// Shared pieces of the benchmarks: start the built api as a real process, create a user
// and token, run autocannon, and a bare Fastify baseline in the same run.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const API_MAIN = fileURLToPath(new URL('../apps/api/dist/main.js', import.meta.url));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the api (embedded PostgreSQL unless BENCH_DATABASE_URL is set) and waits for /healthz. */
export async function startApi(extraEnv = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sharedown-bench-'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [API_MAIN], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('api did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a user and returns its session cookie and a 600/min API token. */
export async function createUser(baseUrl) {
  const email = `bench${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'benchmark password' }),
  });
  if (!registered.ok) throw new Error(`register failed: ${registered.status}`);
  const cookie = /sharedown_session=[^;]+/.exec(registered.headers.get('set-cookie'))[0];
  const created = await fetch(`${baseUrl}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'bench', rateLimitPerMinute: 600 }),
  });
  const { plaintext } = await created.json();
  return { email, cookie, token: plaintext };
}

/** A bare Fastify route answering fixed bytes from memory: the baseline of the HTTP benchmarks. */
export async function startBaseline(body, contentType) {
  const app = Fastify({ logger: false });
  app.get('/*', async (_request, reply) => reply.type(contentType).send(body));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}/baseline`, stop: () => app.close() };
}

/** Runs autocannon and returns req/s and latency percentiles (ms) plus status counts. */
export async function load(url, { connections = 50, duration = 10, headers = {}, method = 'GET' } = {}) {
  const result = await autocannon({ url, connections, duration, headers, method });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function machine() {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function ratio(value, baseline) {
  return baseline ? (value / baseline).toFixed(2) : 'n/a';
}

/** Prints rows as an aligned text table. */
export function printTable(title, rows) {
  const keys = Object.keys(rows[0] ?? {});
  const widths = keys.map((key) => Math.max(key.length, ...rows.map((row) => String(row[key]).length)));
  console.log(`\n${title}`);
  console.log(keys.map((key, i) => key.padEnd(widths[i])).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(keys.map((key, i) => String(row[key]).padEnd(widths[i])).join('  '));
}

/** Resident memory of a process in MiB, from /proc. */
export async function rssMiB(pid) {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
