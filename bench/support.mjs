// Shared pieces of the benchmarks: the production topology on this machine (a ROLE=api process
// and a ROLE=worker process on a fresh database of the machine's PostgreSQL and on Redis), wrk
// as the load generator in its own process, a bare Fastify baseline in its own process, and the
// CPU time of the api and of PostgreSQL's backends read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { API_NODE_ARGS, apiNodeOptions } from '../scripts/api-heap.mjs';

// BENCH_API_MAIN: another build of the api to measure (comparing two builds on the same machine).
const API_MAIN = process.env.BENCH_API_MAIN ?? fileURLToPath(new URL('../apps/api/dist/main.js', import.meta.url));
export const CONNECTIONS = 50;
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const MACHINE_PG = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MACHINE_REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';

/** wrk must be installed (Debian package `wrk`): the load comes from its own C process. */
export function requireWrk() {
  if (spawnSync('sh', ['-c', 'command -v wrk']).status === 0) return;
  console.error(
    'wrk is not installed: the benchmarks drive their load with wrk, in its own process.\n' +
      'Install it with:  sudo apt-get install -y wrk   (Debian/Ubuntu; .ci/run does the same)\n' +
      'or build it from https://github.com/wg/wrk and put it on PATH.',
  );
  process.exit(2);
}

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

async function waitHealthy(baseUrl, child) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The production topology: one ROLE=api process (the one measured) and one ROLE=worker process,
 * on a fresh database of the machine's PostgreSQL (dropped afterwards) and a Redis database.
 * The api logs at LOG_LEVEL=error, without a request log line per answer: that line is an
 * operator's choice here (the embedded default below keeps npm start's). `nodeArgs` go to the
 * api's node (e.g. --cpu-prof).
 */
export async function startApi({ env: extraEnv = {}, nodeArgs = [] } = {}) {
  const admin = new pg.Client({ connectionString: MACHINE_PG });
  await admin.connect().catch((error) => {
    throw new Error(`the benchmarks need PostgreSQL at ${MACHINE_PG} (set BENCH_DATABASE_URL): ${error.message}`);
  });
  const database = `sharedown_bench_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(MACHINE_PG);
  databaseUrl.pathname = `/${database}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'sharedown-bench-'));
  const [port, workerPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    PUBLIC_URL: baseUrl,
    DATABASE_URL: databaseUrl.href,
    REDIS_URL: MACHINE_REDIS,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // The heap cap the Docker image and `npm start` set (scripts/api-heap.mjs); the collector's
    // argument (API_NODE_ARGS) goes to each process below.
    NODE_OPTIONS: apiNodeOptions(),
    ...extraEnv,
  };
  const flushRedis = spawnSync('redis-cli', ['-u', MACHINE_REDIS, 'FLUSHDB'], { encoding: 'utf8' });
  if (flushRedis.status !== 0) throw new Error(`the benchmarks need Redis at ${MACHINE_REDIS} (set BENCH_REDIS_URL)`);
  const startedAt = Date.now();
  // The api first: it migrates the fresh database before the worker comes up.
  const child = spawn(process.execPath, [...API_NODE_ARGS, ...nodeArgs, API_MAIN], {
    env: { ...env, ROLE: 'api', PORT: String(port) },
    cwd: dataDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitHealthy(baseUrl, child);
  // A worker has no HTTP listener: it is ready once it logs that it started.
  const worker = spawn(process.execPath, [...API_NODE_ARGS, API_MAIN], {
    env: { ...env, ROLE: 'worker', PORT: String(workerPort), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('worker did not start')), 90_000);
    worker.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('worker started')) {
        clearTimeout(timer);
        output = '';
        resolve();
      } else if (output.length > 65536) output = output.slice(-1024);
    });
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  worker.stdout.resume();
  // Never leave the processes behind when the benchmark itself dies.
  process.once('exit', () => (child.kill('SIGKILL'), worker.kill('SIGKILL')));
  const db = new pg.Client({ connectionString: databaseUrl.href });
  await db.connect();
  return {
    baseUrl,
    pid: child.pid,
    startedAt,
    dataDir,
    /** A client on the benchmark's database (seeding, checks). */
    db,
    /** The PostgreSQL backends serving this database (api pool, worker, change feed). */
    async postgresPids() {
      const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
        database,
      ]);
      return rows.map((row) => row.pid);
    },
    async stop() {
      await db.end();
      await Promise.all([stopChild(child), stopChild(worker)]);
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
      spawnSync('redis-cli', ['-u', MACHINE_REDIS, 'FLUSHDB']);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The embedded default, as `npm start` runs it: one ROLE=all process with its embedded PostgreSQL
 * under a fresh DATA_DIR, the queue on that database, no Redis. PostgreSQL's CPU is that of the
 * backends serving the service's database, as in the production topology. Its log is npm start's
 * too: LOG_LEVEL at its default (info: a request log line per answer, readable), on a pipe this
 * process reads and drops, as a terminal or a journal would read it. `main` is the build's
 * `dist/main.js` and `launcherArgs` the Node.js arguments the launchers give it (API_NODE_ARGS);
 * bench/side-by-side.mjs varies both. `env` adds to its environment (bench/heap-profile.mjs).
 */
export async function startEmbedded({ nodeArgs = [], main = API_MAIN, launcherArgs = API_NODE_ARGS, env: extraEnv = {} } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sharedown-bench-embedded-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...launcherArgs, ...nodeArgs, main], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      // As `npm start` runs it (scripts/api-heap.mjs).
      NODE_OPTIONS: apiNodeOptions(),
      ...extraEnv,
    },
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.resume();
  const startedAt = Date.now();
  process.once('exit', () => child.kill('SIGKILL'));
  await waitHealthy(baseUrl, child);
  const { port: pgPort } = JSON.parse(await readFile(join(dataDir, 'embedded-postgres.json'), 'utf8'));
  const db = new pg.Client({ connectionString: `postgres://sharedown:sharedown@127.0.0.1:${pgPort}/sharedown` });
  await db.connect();
  return {
    baseUrl,
    pid: child.pid,
    startedAt,
    dataDir,
    db,
    async postgresPids() {
      const { rows } = await db.query("SELECT pid FROM pg_stat_activity WHERE datname = 'sharedown' AND pid <> pg_backend_pid()");
      return rows.map((row) => row.pid);
    },
    async stop() {
      await db.end();
      await stopChild(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a user and returns its session cookie and `tokens` API tokens of 600/min. */
export async function createUser(baseUrl, tokens = 1) {
  const email = `bench${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'benchmark password' }),
  });
  if (!registered.ok) throw new Error(`register failed: ${registered.status}`);
  const cookie = /sharedown_session=[^;]+/.exec(registered.headers.get('set-cookie'))[0];
  const plaintexts = [];
  for (let i = 0; i < tokens; i++) {
    const created = await fetch(`${baseUrl}/api/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: `bench ${i}`, rateLimitPerMinute: 600 }),
    });
    if (!created.ok) throw new Error(`token creation failed: ${created.status} ${await created.text()}`);
    plaintexts.push((await created.json()).plaintext);
  }
  return { email, cookie, token: plaintexts[0], tokens: plaintexts };
}

/**
 * Bare Fastify in its own process answering fixed bytes from memory: `routes` maps a path to
 * { body, contentType }; any other path answers the first route. The baseline of every ratio.
 */
export async function startBaseline(routes) {
  const port = await freePort();
  const fastifyEntry = fileURLToPath(import.meta.resolve('fastify'));
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-bench-baseline-'));
  const spec = Object.entries(routes).map(([path, { body, contentType }]) => ({
    path,
    contentType,
    body: Buffer.from(body).toString('base64'),
  }));
  await writeFile(join(dir, 'routes.json'), JSON.stringify(spec));
  const source = `
    import { readFileSync } from 'node:fs';
    const { default: Fastify } = await import(${JSON.stringify(fastifyEntry)});
    const routes = JSON.parse(readFileSync(${JSON.stringify(join(dir, 'routes.json'))}, 'utf8'))
      .map((route) => ({ ...route, body: Buffer.from(route.body, 'base64') }));
    const app = Fastify({ logger: false });
    for (const route of routes) app.get(route.path, async (_request, reply) => reply.type(route.contentType).send(route.body));
    app.get('/*', async (_request, reply) => reply.type(routes[0].contentType).send(routes[0].body));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`baseline exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** utime + stime of a process (all its threads) in seconds; 0 when it is gone. */
export async function cpuSeconds(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

async function cpuOf(pids) {
  const entries = await Promise.all(pids.map(async (pid) => [pid, await cpuSeconds(pid)]));
  return new Map(entries);
}

const REPORT_LUA = `
local statuses = {}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function done(summary, latency, requests)
  local s = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    s.connect, s.read, s.write, s.status, s.timeout))
  local extra = {}
  for _, name in ipairs(REPORT_COUNTERS or {}) do
    local total = 0
    for _, t in ipairs(threads) do total = total + (t:get(name) or 0) end
    io.write(string.format(',"%s":%d', name, total))
  end
  io.write('}\\n')
end
`;

/**
 * Runs wrk (1 thread, `connections`, `duration` s) with an optional Lua scenario (`lua`: text
 * defining request/response; counters named in REPORT_COUNTERS are summed over threads), while
 * reading the CPU time of `cpuPids` ({ name: () => pids }) before and after. Returns req/s,
 * latency p50/p99 in ms, error counts and the CPU seconds of each group per 1,000 requests.
 */
export async function wrk(
  url,
  { duration = DURATION_SECONDS, connections = CONNECTIONS, headers = {}, lua = '', cpu = {}, onSample } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-bench-wrk-'));
  const script = join(dir, 'scenario.lua');
  await writeFile(script, `${lua}\n${REPORT_LUA}`);
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', script];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  const groups = await Promise.all(Object.entries(cpu).map(async ([name, pids]) => [name, await pids()]));
  const before = await Promise.all(groups.map(async ([name, pids]) => [name, await cpuOf(pids)]));
  const sampler = onSample ? setInterval(onSample, 250) : null;
  const output = await new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  if (sampler) clearInterval(sampler);
  const after = await Promise.all(Object.entries(cpu).map(async ([name, pids]) => [name, await cpuOf(await pids())]));
  await rm(dir, { recursive: true, force: true });
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no summary: ${output}`);
  const summary = JSON.parse(line.slice('WRK_JSON '.length));
  const seconds = summary.duration_us / 1e6;
  const cpuPer1000 = {};
  for (const [name, used] of after) {
    const start = new Map(before.find(([n]) => n === name)?.[1] ?? []);
    let total = 0;
    for (const [pid, value] of used) total += value - (start.get(pid) ?? 0);
    cpuPer1000[name] = summary.requests ? (total / summary.requests) * 1000 : 0;
  }
  return {
    ...summary,
    rps: summary.requests / seconds,
    p50: summary.p50_us / 1000,
    p99: summary.p99_us / 1000,
    errors: summary.connect + summary.read + summary.write + summary.timeout,
    cpuPer1000,
    command: `wrk ${args
      .map((a) => (a.includes(' ') ? `'${a}'` : a))
      .join(' ')
      .replace(script, '<scenario>.lua')}`,
  };
}

export function machine() {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** value / baseline as text with two decimals. */
export function ratio(value, baseline) {
  return baseline ? (value / baseline).toFixed(2) : 'n/a';
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where a profile's call frame is, as `path:line`: a package's file from its package name on, one
 * of ours relative to the repository (bench/profile.mjs, bench/heap-profile.mjs).
 */
export function sourcePlace(frame) {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return '';
  const short = !url.startsWith('/')
    ? url
    : url.includes('node_modules')
      ? url.slice(url.lastIndexOf('node_modules/') + 13).replace(/^\.pnpm\/[^/]+\/node_modules\//, '')
      : relative(ROOT, url);
  return `${short}:${frame.lineNumber + 1}`;
}

/** The median of a list of numbers: for an even count, the mean of the middle two. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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

/** CPU microseconds one answer cost: the measured process and its PostgreSQL backends together. */
export function cpuMicrosPerAnswer(m) {
  return ((m.cpuPer1000.api ?? 0) + (m.cpuPer1000.postgres ?? 0)) * 1000;
}

/**
 * The judge of a case: bare Fastify's CPU per answer over the case's (1.00 = as cheap as a bare
 * answer; 0.25 = four bare answers). Unlike a req/s ratio it does not flatter the slower server
 * when other work shares the cores.
 */
export function cpuRatio(m, baseline) {
  const own = cpuMicrosPerAnswer(m);
  return own > 0 ? cpuMicrosPerAnswer(baseline) / own : 0;
}

/**
 * Two measurements of the same thing as one: their mean req/s, latencies and CPU. Bare Fastify is
 * measured right before and right after each case and the case is judged against the mean, so a
 * machine whose speed drifts during the run (bare Fastify's CPU per answer moved between 25 and 45
 * µs from minute to minute on the same quiet machine) moves both sides of the ratio alike.
 */
export function meanOf(a, b) {
  const mean = (x, y) => (x + y) / 2;
  const cpuPer1000 = {};
  for (const key of new Set([...Object.keys(a.cpuPer1000), ...Object.keys(b.cpuPer1000)])) {
    cpuPer1000[key] = mean(a.cpuPer1000[key] ?? 0, b.cpuPer1000[key] ?? 0);
  }
  // Counts add up (a failed answer in either run must show); rates and latencies are averaged.
  const summed = {};
  for (const key of ['requests', 'ok', 'other', 'errors']) if (key in a || key in b) summed[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return { ...a, ...summed, rps: mean(a.rps, b.rps), p50: mean(a.p50, b.p50), p99: mean(a.p99, b.p99), cpuPer1000 };
}

/**
 * A case measured in rounds between runs of bare Fastify (bare, case, bare, case, …, bare), each
 * round judged against the bare runs right before and after it; the case's figure is its median
 * round. One 10 s run is not enough on a virtual machine: runs of the same build, minutes apart on
 * a quiet machine, cost from 129 to 200 µs per view. `total` adds up the counts of every round, so
 * a failed answer in any of them shows.
 */
export async function inRounds(rounds, runBare, runCase) {
  const bares = [await runBare()];
  const cases = [];
  for (let i = 0; i < rounds; i++) {
    cases.push(await runCase());
    bares.push(await runBare());
  }
  const judged = cases.map((measured, i) => {
    const bare = meanOf(bares[i], bares[i + 1]);
    return { measured, bare, ratio: cpuRatio(measured, bare) };
  });
  const median = [...judged].sort((a, b) => a.ratio - b.ratio)[Math.floor(judged.length / 2)];
  const total = {};
  for (const key of ['requests', 'ok', 'other', 'errors']) total[key] = cases.reduce((sum, m) => sum + (m[key] ?? 0), 0);
  return { measured: median.measured, bare: median.bare, ratios: judged.map((round) => round.ratio), total };
}

/** The rounds of a case as one line: each round's CPU ratio, in the order they ran. */
export function roundsLine(name, rounds) {
  return `${name}: CPU ratio of each round ${rounds.ratios.map((ratio) => ratio.toFixed(3)).join(', ')} (the table shows the median round)`;
}

/** One table row of a wrk measurement beside its baseline: the CPU ratio (the target's) and the req/s ratio. */
export function row(name, m, baseline, target) {
  return {
    case: name,
    'req/s': m.rps.toFixed(0),
    'p50 ms': m.p50.toFixed(2),
    'p99 ms': m.p99.toFixed(2),
    'api cpu s/1k': (m.cpuPer1000.api ?? 0).toFixed(3),
    'pg cpu s/1k': m.cpuPer1000.postgres === undefined ? '-' : m.cpuPer1000.postgres.toFixed(3),
    'cpu µs/answer': cpuMicrosPerAnswer(m).toFixed(1),
    'cpu ratio': baseline ? cpuRatio(m, baseline).toFixed(2) : '1.00',
    'req/s ratio': baseline ? (m.rps / baseline.rps).toFixed(2) : '1.00',
    target: target ? `cpu >= ${target.toFixed(2)}` : '',
  };
}

/** The load averages, printed before and after each benchmark: a ratio means little on a busy machine. */
export function loadLine(when) {
  const [one, five, fifteen] = loadavg();
  return `load average ${when}: ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)} (${cpus().length} cores)`;
}

/**
 * Waits (at most `maxSeconds`) until the one-minute load average is below 1, as a quiet machine's
 * is: what ran just before (a build, another benchmark's seeding) still shares the cores
 * otherwise. Says how long it waited, or that the machine stayed busy.
 */
export async function quietMachine(maxSeconds = 90) {
  const started = Date.now();
  while (loadavg()[0] >= 1) {
    if (Date.now() - started > maxSeconds * 1000) {
      console.log(`the machine stayed busy for ${maxSeconds} s (load average ${loadavg()[0].toFixed(2)}): measuring anyway`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const waited = Math.round((Date.now() - started) / 1000);
  if (waited > 0) console.log(`waited ${waited} s for the load average to fall below 1`);
}

/** Collects missed targets; the run exits non-zero when any is missed. */
export const missed = [];
export function expectAtLeast(name, value, target) {
  const ok = value >= target;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${name}: ${value.toFixed(2)} (target >= ${target})`);
  if (!ok) missed.push(`${name}: ${value.toFixed(2)} < ${target}`);
}
export function expectAtMost(name, value, target, unit = '') {
  const ok = value <= target;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${name}: ${value.toFixed(1)}${unit} (target < ${target}${unit})`);
  if (!ok) missed.push(`${name}: ${value.toFixed(1)}${unit} >= ${target}${unit}`);
}

/** Resident memory of a process in MiB, from /proc. */
export async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** About 20 KB of Markdown with headings, lists, a table and highlighted code. */
export function markdownOf(bytes = 20 * 1024) {
  const sections = [];
  for (let i = 1; Buffer.byteLength(sections.join('\n')) < bytes; i++) {
    sections.push(
      `## Section ${i}\n\nThe quarterly figures for region ${i} grew by ${i % 7}.${i % 10} percent, ` +
        'driven by **steady renewals** and a _handful_ of new accounts. See the [report](https://example.com/r).\n\n' +
        `- item ${i}.1\n- item ${i}.2\n\n| q | value |\n|---|---|\n| Q${(i % 4) + 1} | ${i * 13} |\n\n` +
        '```js\n' +
        `const total${i} = values.reduce((sum, v) => sum + v, 0);\n` +
        '```\n',
    );
  }
  return `# Benchmark document\n\n${sections.join('\n')}`;
}

/** Uploads a document with a share (settings `share`) and waits until its scan is CLEAN. */
export async function uploadShared(baseUrl, token, name, content, share = {}, type = 'text/markdown') {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  form.append('share', JSON.stringify(share));
  const response = await fetch(`${baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const uploaded = await response.json();
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const file = await (
      await fetch(`${baseUrl}/api/v1/files/${uploaded.file.id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    if (file.scanStatus === 'CLEAN') return uploaded;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('scan did not settle');
}

/** Creates another share of a file. */
export async function createShare(baseUrl, token, body) {
  const response = await fetch(`${baseUrl}/api/v1/shares`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`share creation failed: ${response.status} ${await response.text()}`);
  return response.json();
}

export async function getShare(baseUrl, token, id) {
  return (await fetch(`${baseUrl}/api/v1/shares/${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
}
