// Upload → CLEAN latency of a 1 MB Markdown document: POST /v1/files, then the scan job
// settles the version (builtin EICAR scanner, and a real clamd when one is installed).
// Beside it, measured in the same run: the raw markdown-it parse of the same input, a bare
// Fastify route receiving the same multipart bytes, and a direct clamd INSTREAM scan.
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import MarkdownIt from 'markdown-it';
import { createUser, freePort, machine, percentile, printTable, ratio, startApi } from './support.mjs';
import { markdownDocument } from './validate.mjs';

const UPLOADS = 15;
const POLL_MS = 5;
const SIGNATURES = fileURLToPath(new URL('../test/fixtures/clamav/', import.meta.url));

function stats(samples) {
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

function form(name, content) {
  const body = new FormData();
  body.append('file', new Blob([content]), name);
  return body;
}

/** A private clamd with the test signature database, or null when clamd is not installed. */
async function startClamd() {
  if (spawnSync('sh', ['-c', 'command -v clamd']).status !== 0) return null;
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-bench-clamd-'));
  await mkdir(join(dir, 'db'));
  await cp(SIGNATURES, join(dir, 'db'), { recursive: true });
  const port = await freePort();
  await writeFile(
    join(dir, 'clamd.conf'),
    `Foreground yes\nTCPSocket ${port}\nTCPAddr 127.0.0.1\nDatabaseDirectory ${join(dir, 'db')}\nTemporaryDirectory ${dir}\nBytecode no\nSelfCheck 0\n`,
  );
  const child = spawn('clamd', ['-c', join(dir, 'clamd.conf')], { stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (
    !(await instream(port, Buffer.from('ping')).then(
      () => true,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('clamd did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One clamd INSTREAM scan over a raw socket: the scanner's own cost, without the service. */
function instream(port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('clamd timeout')));
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => (answer.includes('OK') ? resolve(answer) : reject(new Error(answer))));
    socket.on('error', reject);
    socket.connect(port, '127.0.0.1', () => {
      socket.write('zINSTREAM\0');
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
        const chunk = bytes.subarray(offset, offset + 64 * 1024);
        const size = Buffer.alloc(4);
        size.writeUInt32BE(chunk.length);
        socket.write(size);
        socket.write(chunk);
      }
      socket.write(Buffer.alloc(4));
    });
  });
}

/** A bare Fastify route that takes the same multipart body into memory and answers. */
async function startReceiver() {
  const app = Fastify({ logger: false, bodyLimit: 16 * 2 ** 20 });
  app.addContentTypeParser(/^multipart\//, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/receive', async (request) => ({ bytes: request.body.length }));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}/receive`, stop: () => app.close() };
}

/** Uploads UPLOADS copies and measures POST latency and time until the scan reports CLEAN. */
async function measureUploads(label, extraEnv, content) {
  const api = await startApi({ env: extraEnv });
  try {
    const user = await createUser(api.baseUrl);
    const post = [];
    const clean = [];
    for (let i = -2; i < UPLOADS; i++) {
      const t0 = performance.now();
      const response = await fetch(`${api.baseUrl}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}` },
        body: form(`bench-${i + 2}.md`, content),
      });
      const { file } = await response.json();
      if (!response.ok) throw new Error(`upload answered ${response.status}`);
      const t1 = performance.now();
      for (;;) {
        const view = await fetch(`${api.baseUrl}/api/console/files/${file.id}`, { headers: { cookie: user.cookie } });
        const { file: current } = await view.json();
        if (current.scanStatus === 'CLEAN') break;
        if (current.scanStatus !== 'PENDING') throw new Error(`${label}: scan ended ${current.scanStatus}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const t2 = performance.now();
      if (i < 0) continue;
      post.push(t1 - t0);
      clean.push(t2 - t0);
    }
    return { post: stats(post), clean: stats(clean) };
  } finally {
    await api.stop();
  }
}

async function measureBaselines(content, clamd) {
  const markdown = new MarkdownIt({ html: true, linkify: true });
  const receiver = await startReceiver();
  const bytes = Buffer.from(content);
  const parse = [];
  const receive = [];
  const scan = [];
  try {
    for (let i = -2; i < UPLOADS; i++) {
      const t0 = performance.now();
      markdown.parse(content, {});
      const t1 = performance.now();
      const response = await fetch(receiver.url, { method: 'POST', body: form('baseline.md', content) });
      await response.json();
      const t2 = performance.now();
      if (clamd) await instream(clamd.port, bytes);
      const t3 = performance.now();
      if (i < 0) continue;
      parse.push(t1 - t0);
      receive.push(t2 - t1);
      scan.push(t3 - t2);
    }
  } finally {
    await receiver.stop();
  }
  return { parse: stats(parse), receive: stats(receive), scan: clamd ? stats(scan) : null };
}

export async function run() {
  const content = markdownDocument();
  const megabytes = (Buffer.byteLength(content) / 2 ** 20).toFixed(2);
  const clamd = await startClamd();
  try {
    const builtin = await measureUploads('builtin', {}, content);
    const withClamd = clamd
      ? await measureUploads('clamd', { CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(clamd.port) }, content)
      : null;
    const baselines = await measureBaselines(content, clamd);
    const line = (label, measured) => ({
      case: label,
      'p50 ms': measured.p50.toFixed(1),
      'p95 ms': measured.p95.toFixed(1),
      'mean ms': measured.mean.toFixed(1),
      '× parse': ratio(measured.p50, baselines.parse.p50),
      '× receive': ratio(measured.p50, baselines.receive.p50),
    });
    const rows = [
      line('upload → CLEAN, builtin scanner', builtin.clean),
      line('  POST /v1/files answered', builtin.post),
      ...(withClamd ? [line('upload → CLEAN, clamd', withClamd.clean), line('  POST /v1/files answered', withClamd.post)] : []),
      line('baseline: markdown-it parse', baselines.parse),
      line('baseline: bare Fastify receives the same body', baselines.receive),
      ...(baselines.scan ? [line('baseline: direct clamd INSTREAM scan', baselines.scan)] : []),
    ];
    printTable(`Upload of a ${megabytes} MB Markdown document until CLEAN, ${UPLOADS} uploads each (${machine()})`, rows);
    if (!clamd) console.log('clamd is not installed: the clamd case was skipped');
    console.log('× parse and × receive: p50 of the row divided by the p50 of that baseline, same run.');
    return rows;
  } finally {
    await clamd?.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
