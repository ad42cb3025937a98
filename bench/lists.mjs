// Lists at size: an account with 10,000 files and 10,000 shares (seeded by SQL, beside a second
// account of the same size), and the time of the first page of every list the console and the
// CLI read, against the whole list of before. Self-contained: starts the built api
// (apps/api/dist/main.js) on its embedded PostgreSQL, or on BENCH_DATABASE_URL when set.
// Prints the median and p95 of each route, EXPLAIN ANALYZE of the page queries, and exits
// non-zero when a first page answers in 100 ms or more.
//
//   node bench/lists.mjs            (build the api first: cd apps/api && npx tsc -p tsconfig.build.json)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const API_MAIN = fileURLToPath(new URL('../apps/api/dist/main.js', import.meta.url));
const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 10_000);
const SAMPLES = 15;
const FIRST_PAGE_BUDGET_MS = 100;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startApi() {
  const dataDir = await mkdtemp(join(tmpdir(), 'sharedown-bench-lists-'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  };
  const child = spawn(process.execPath, [API_MAIN], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('api did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ??
    `postgres://sharedown:sharedown@127.0.0.1:${JSON.parse(await readFile(join(dataDir, 'embedded-postgres.json'), 'utf8')).port}/sharedown`;
  return {
    baseUrl,
    databaseUrl,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function createUser(baseUrl) {
  const email = `lists${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
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
  const me = await (await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } })).json();
  return { id: me.user.id, cookie, token: plaintext };
}

/** ROWS files (one clean version each) and one share per file, created a second apart. */
async function seed(client, userId) {
  await client.query('BEGIN');
  await client.query(
    `CREATE TEMP TABLE seed ON COMMIT DROP AS
     SELECT i, gen_random_uuid() AS file_id, gen_random_uuid() AS version_id FROM generate_series(1, $1::int) i`,
    [ROWS],
  );
  await client.query(
    `INSERT INTO files (id, user_id, name, kind, current_version_id, created_at, updated_at)
     SELECT file_id, $1, format('document-%s.md', lpad(i::text, 6, '0')), 'MARKDOWN', version_id,
            now() - i * interval '1 second', now() - i * interval '1 second'
     FROM seed`,
    [userId],
  );
  await client.query(
    `INSERT INTO file_versions (id, file_id, version_no, content, size_bytes, sha256, scan_status, scanned_at)
     SELECT version_id, file_id, 1, '# Document', 10, repeat('0', 64), 'CLEAN', now() FROM seed`,
  );
  await client.query(
    `INSERT INTO shares (user_id, file_id, token, created_at, visit_count, unique_visit_count, revoked_at)
     SELECT $1, file_id, 'b' || replace(gen_random_uuid()::text, '-', ''), now() - i * interval '1 second', i % 50, i % 20,
            CASE WHEN i % 10 = 0 THEN now() END
     FROM seed`,
    [userId],
  );
  await client.query('COMMIT');
}

async function timed(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

async function sample(url, headers, count = SAMPLES) {
  const times = [];
  let body;
  for (let i = 0; i < count; i++) ({ ms: times[i], body } = await timed(url, headers));
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)],
    p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))],
    body,
  };
}

/** Walks every page and answers the slowest page and the number of rows read. */
async function walk(baseUrl, path, key, headers) {
  let cursor = null;
  let slowest = 0;
  let rows = 0;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const { ms, body } = await timed(
      `${baseUrl}${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers,
    );
    slowest = Math.max(slowest, ms);
    rows += body[key].length;
    pages += 1;
    cursor = body.nextCursor;
  } while (cursor);
  return { slowest, rows, pages };
}

async function explain(client, sql, params) {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
  const plan = rows[0]['QUERY PLAN'][0];
  const nodes = [];
  const visit = (node) => {
    if (node['Index Name']) nodes.push(`${node['Node Type']} on ${node['Index Name']}`);
    else if (node['Node Type'] === 'Seq Scan') nodes.push(`Seq Scan on ${node['Relation Name']}`);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan.Plan);
  return { ms: plan['Planning Time'] + plan['Execution Time'], nodes: [...new Set(nodes)].join(', ') };
}

function printTable(title, rows) {
  const keys = Object.keys(rows[0] ?? {});
  const widths = keys.map((key) => Math.max(key.length, ...rows.map((row) => String(row[key]).length)));
  console.log(`\n${title}`);
  console.log(keys.map((key, i) => key.padEnd(widths[i])).join('  '));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(keys.map((key, i) => String(row[key]).padEnd(widths[i])).join('  '));
}

export async function run() {
  const api = await startApi();
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  try {
    const [owner, neighbour] = [await createUser(api.baseUrl), await createUser(api.baseUrl)];
    const seedStarted = performance.now();
    await seed(client, owner.id);
    await seed(client, neighbour.id);
    await client.query('ANALYZE files; ANALYZE file_versions; ANALYZE shares');
    console.log(
      `seeded ${ROWS} files and ${ROWS} shares for each of two accounts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    const bearer = { authorization: `Bearer ${owner.token}` };
    const session = { cookie: owner.cookie };
    const firstPages = [
      ['GET /api/v1/files?limit=50', `/api/v1/files?limit=50`, bearer],
      ['GET /api/v1/shares?limit=50', `/api/v1/shares?limit=50`, bearer],
      ['GET /api/console/shares?limit=20 (console list)', `/api/console/shares?limit=20`, session],
      ['GET /api/console/shares?limit=20&status=revoked&q=000', `/api/console/shares?limit=20&status=revoked&q=000`, session],
      ['GET /api/console/shares/totals', `/api/console/shares/totals`, session],
      ['GET /api/console/files?pageSize=50 (console browser)', `/api/console/files?pageSize=50`, session],
    ];
    const rows = [];
    let missed = 0;
    for (const [name, path, headers] of firstPages) {
      const measured = await sample(`${api.baseUrl}${path}`, headers);
      const ok = measured.median < FIRST_PAGE_BUDGET_MS;
      if (!ok) missed += 1;
      rows.push({
        route: name,
        'median ms': measured.median.toFixed(1),
        'p95 ms': measured.p95.toFixed(1),
        [`< ${FIRST_PAGE_BUDGET_MS} ms`]: ok ? 'yes' : 'NO',
      });
    }
    for (const [name, path, headers] of [
      ['GET /api/v1/files (whole list, before)', '/api/v1/files', bearer],
      ['GET /api/v1/shares (whole list, before)', '/api/v1/shares', bearer],
    ]) {
      const measured = await sample(`${api.baseUrl}${path}`, headers, 3);
      rows.push({
        route: name,
        'median ms': measured.median.toFixed(1),
        'p95 ms': measured.p95.toFixed(1),
        [`< ${FIRST_PAGE_BUDGET_MS} ms`]: '—',
      });
    }
    printTable(`First page vs whole list, ${ROWS} files and ${ROWS} shares, ${SAMPLES} sequential calls each`, rows);

    const walks = [];
    for (const [name, path, key] of [
      ['files, limit 200', '/api/v1/files?limit=200', 'files'],
      ['shares, limit 200', '/api/v1/shares?limit=200', 'shares'],
    ]) {
      const walked = await walk(api.baseUrl, path, key, bearer);
      walks.push({ list: name, pages: walked.pages, rows: walked.rows, 'slowest page ms': walked.slowest.toFixed(1) });
    }
    printTable('Every page in turn (keyset: the last page costs what the first does)', walks);

    // The page queries as the repositories send them (files.repository.ts, share-list.repository.ts).
    const lastFile = (
      await client.query(`SELECT name, id FROM files WHERE user_id = $1 ORDER BY name, id OFFSET $2 LIMIT 1`, [
        owner.id,
        ROWS - 100,
      ])
    ).rows[0];
    const lastShare = (
      await client.query(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t, id FROM shares WHERE user_id = $1
         ORDER BY created_at DESC, id OFFSET $2 LIMIT 1`,
        [owner.id, ROWS - 100],
      )
    ).rows[0];
    const fileColumns = `f.id, f.name, v.size_bytes, v.scan_status,
      (SELECT count(*)::int FROM shares s WHERE s.file_id = f.id AND s.revoked_at IS NULL AND s.consumed_at IS NULL
        AND (s.expires_at IS NULL OR s.expires_at > now())) AS share_count`;
    const fileFrom = `files f JOIN file_versions v ON v.id = f.current_version_id`;
    const shareFrom = `shares s JOIN files f ON f.id = s.file_id JOIN users u ON u.id = s.user_id`;
    const plans = [
      [
        'files, first page',
        `SELECT ${fileColumns} FROM ${fileFrom} WHERE f.user_id = $1 AND f.deleted_at IS NULL ORDER BY f.name, f.id LIMIT 51`,
        [owner.id],
      ],
      [
        'files, page after row 9,900',
        `SELECT ${fileColumns} FROM ${fileFrom} WHERE f.user_id = $1 AND f.deleted_at IS NULL AND (f.name, f.id) > ($2, $3::uuid) ORDER BY f.name, f.id LIMIT 51`,
        [owner.id, lastFile.name, lastFile.id],
      ],
      [
        'shares, first page',
        `SELECT s.*, f.name, u.segment FROM ${shareFrom} WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id LIMIT 51`,
        [owner.id],
      ],
      [
        'shares, page after row 9,900',
        `SELECT s.*, f.name, u.segment FROM ${shareFrom} WHERE s.user_id = $1
           AND s.created_at <= $2::timestamptz AND (s.created_at < $2::timestamptz OR s.id > $3::uuid)
         ORDER BY s.created_at DESC, s.id LIMIT 51`,
        [owner.id, lastShare.t, lastShare.id],
      ],
      [
        'files, whole list (before)',
        `SELECT ${fileColumns} FROM ${fileFrom} WHERE f.user_id = $1 AND f.deleted_at IS NULL ORDER BY f.name, f.id`,
        [owner.id],
      ],
    ];
    const explained = [];
    for (const [name, sql, params] of plans) {
      const plan = await explain(client, sql, params);
      explained.push({ query: name, 'planning + execution ms': plan.ms.toFixed(2), 'index use': plan.nodes });
    }
    printTable('EXPLAIN ANALYZE of the page queries', explained);

    if (missed) {
      console.error(`\n${missed} first page(s) took ${FIRST_PAGE_BUDGET_MS} ms or more`);
      process.exitCode = 1;
    }
    return rows;
  } finally {
    await client.end();
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
