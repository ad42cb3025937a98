// The share view path under load: an uncapped 20 KB Markdown share and a capped one
// (maxVisits 9999), 50 connections each, beside a bare Fastify server answering the same
// bytes from memory in its own process, measured in the same run. Every view is a real
// admitted visit: gate query, atomic admission in PostgreSQL, rendered page.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createUser, freePort, machine, printTable, ratio, startApi } from './support.mjs';

const CONNECTIONS = 50;
const DURATION_SECONDS = 10;
const CAP = 9999;

/** About 20 KB of Markdown with headings, lists, a table and highlighted code. */
export function markdownOf(bytes = 20 * 1024) {
  const sections = [];
  for (let i = 1; Buffer.byteLength(sections.join('\n')) < bytes; i++) {
    sections.push(
      `## Section ${i}\n\nThe quarterly figures for region ${i} grew by ${i % 7}.${i % 10} percent, ` +
        'driven by **steady renewals** and a _handful_ of new accounts. See the [report](https://example.com/r).\n\n' +
        `- item ${i}.1\n- item ${i}.2\n\n| q | value |\n|---|---|\n| Q${(i % 4) + 1} | ${i * 13} |\n\n` +
        '```js\n' + `const total${i} = values.reduce((sum, v) => sum + v, 0);\n` + '```\n',
    );
  }
  return `# Benchmark document\n\n${sections.join('\n')}`;
}

async function uploadShared(baseUrl, token, name, content, share) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/markdown' }), name);
  form.append('share', JSON.stringify(share));
  const response = await fetch(`${baseUrl}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return response.json();
}

async function waitClean(baseUrl, token, fileId) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const file = await (await fetch(`${baseUrl}/api/v1/files/${fileId}`, { headers: { authorization: `Bearer ${token}` } })).json();
    if (file.scanStatus === 'CLEAN') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('scan did not settle');
}

/** Bare Fastify in a child process, so it does not share the load generator's event loop. */
async function startBaselineProcess(body) {
  const port = await freePort();
  const fastifyEntry = fileURLToPath(import.meta.resolve('fastify'));
  const source = `
    const { default: Fastify } = await import(${JSON.stringify(fastifyEntry)});
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const app = Fastify({ logger: false });
    app.get('/*', async (_request, reply) => reply.type('text/html; charset=utf-8').send(body));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(body);
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`baseline exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/baseline`,
    stop: () => new Promise((resolve) => (child.kill('SIGTERM'), child.once('exit', resolve))),
  };
}

async function measure(url, options) {
  const result = await autocannon({ url, connections: CONNECTIONS, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

export async function run() {
  const api = await startApi();
  try {
    const user = await createUser(api.baseUrl);
    const markdown = markdownOf();
    const uncapped = await uploadShared(api.baseUrl, user.token, 'bench.md', markdown, {});
    await waitClean(api.baseUrl, user.token, uncapped.file.id);
    const capped = await fetch(`${api.baseUrl}/api/v1/shares`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fileId: uncapped.file.id, maxVisits: CAP }),
    }).then((response) => response.json());

    // The baseline answers exactly the bytes of a rendered view.
    const page = await fetch(uncapped.url);
    if (page.status !== 200) throw new Error(`view answered ${page.status}`);
    const body = Buffer.from(await page.arrayBuffer());
    const baseline = await startBaselineProcess(body);
    try {
      // Warm-up: JIT, connection pools, the rendering cache.
      await measure(baseline.url, { duration: 2 });
      await measure(uncapped.url, { duration: 2 });

      const bare = await measure(baseline.url, { duration: DURATION_SECONDS });
      const open = await measure(uncapped.url, { duration: DURATION_SECONDS });
      // The capped share admits at most 9999 visits (minus those above): a fixed amount inside the cap.
      const limited = await measure(capped.url, { amount: Math.min(CAP - 10, Math.round(open.rps * DURATION_SECONDS)) });
      const after = await fetch(`${api.baseUrl}/api/v1/shares/${capped.share.id}`, { headers: { authorization: `Bearer ${user.token}` } }).then(
        (response) => response.json(),
      );
      if (open.non2xx || limited.non2xx || open.errors || limited.errors) {
        throw new Error(`unexpected answers: uncapped ${open.non2xx} non-2xx/${open.errors} errors, capped ${limited.non2xx}/${limited.errors}`);
      }
      if (after.visitCount !== limited.total) throw new Error(`capped share counted ${after.visitCount} of ${limited.total} views`);

      const row = (name, m) => ({
        case: name,
        'req/s': m.rps.toFixed(0),
        'p50 ms': String(m.p50),
        'p99 ms': String(m.p99),
        'ratio req/s': ratio(m.rps, bare.rps),
        'ratio p50': ratio(bare.p50 || 0.5, m.p50 || 0.5),
      });
      const rows = [
        row(`bare Fastify, same ${(body.length / 1024).toFixed(1)} KB from memory`, bare),
        row('view, uncapped 20 KB Markdown share', open),
        row(`view, capped share (maxVisits ${CAP})`, limited),
      ];
      printTable(`Share view, ${CONNECTIONS} connections, ${DURATION_SECONDS} s (${machine()})`, rows);
      console.log(`\nuncapped/baseline req/s: ${ratio(open.rps, bare.rps)} (target >= 0.25); capped counted ${after.visitCount} visits exactly`);
      return rows;
    } finally {
      await baseline.stop();
    }
  } finally {
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
