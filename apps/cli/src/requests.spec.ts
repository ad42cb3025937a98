import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from './io.js';
import { run } from './program.js';

const REQUEST_ID = '5b0f4c57-2f2f-4d51-9a43-6f7d3f1c0a01';
const UPLOAD_ID = '9c1e0a6b-7d0e-4f1d-8a1b-2c3d4e5f6a7b';
const URL_OF_PAGE = 'http://sharedown.test/r/owner/tok';

const REQUEST = {
  id: REQUEST_ID,
  title: 'Signed policies',
  instructions: '',
  folderId: 'd1',
  maxUploads: 3,
  maxBytes: 10485760,
  expiresAt: null,
  hasPassword: true,
  emailAllowlist: ['ann@example.com'],
  state: 'OPEN',
  uploadCount: 1,
  url: URL_OF_PAGE,
  notify: 'every',
  createdAt: '2026-05-01T10:00:00.000Z',
  closedAt: null,
};

const UPLOAD = {
  id: UPLOAD_ID,
  fileId: 'f1',
  fileName: 'policy.md',
  sizeBytes: 2048,
  scanStatus: 'CLEAN',
  review: 'PENDING',
  uploaderName: 'Ann',
  uploaderEmail: 'ann@example.com',
  message: 'here it is',
  at: '2026-05-01T11:00:00.000Z',
};

function answerOf(method: string, path: string): unknown {
  if (path.endsWith('/accept')) return { upload: { ...UPLOAD, review: 'ACCEPTED' } };
  if (path.endsWith('/reject')) return { upload: { ...UPLOAD, review: 'REJECTED' } };
  if (path.endsWith('/uploads')) return { uploads: [UPLOAD], nextCursor: null };
  if (path === '/api/v1/requests') {
    return method === 'POST' ? { request: REQUEST, url: URL_OF_PAGE } : { requests: [REQUEST], nextCursor: null };
  }
  if (method === 'DELETE') return { request: { ...REQUEST, state: 'CLOSED', closedAt: '2026-05-02T10:00:00.000Z' } };
  return { request: REQUEST };
}

function stream(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean };
  out.isTTY = isTTY;
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: out, text: () => text };
}

const calls: { method: string; path: string; query: string; body: unknown }[] = [];

/** One `sharedown …` run against a stubbed service, its stdout a terminal or not. */
async function sharedown(args: string[], options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const stdout = stream(options.tty ?? false);
  const stderr = stream(false);
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { SHAREDOWN_URL: 'http://sharedown.test', SHAREDOWN_TOKEN: 'shd_unit', HOME: '/nonexistent', ...options.env },
  };
  const code = await run(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = input.method === 'GET' ? '' : await input.clone().text();
      calls.push({ method: input.method, path: url.pathname, query: url.search, body: text ? JSON.parse(text) : undefined });
      return Response.json(answerOf(input.method, url.pathname));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('sharedown requests', () => {
  it('--help lists its seven commands', async () => {
    const { code, stdout } = await sharedown(['requests', '--help']);
    expect(code).toBe(0);
    for (const command of ['create', 'ls', 'show', 'close', 'uploads', 'accept', 'reject']) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect((await sharedown(['--help'])).stdout).toMatch(/^ {2}requests\b/m);
  });

  it('create posts the flags and prints only the link when stdout is not a terminal', async () => {
    const { code, stdout, stderr } = await sharedown([
      'requests',
      'create',
      'Signed policies',
      '--max-uploads',
      '3',
      '--allow',
      'ann@example.com',
      '--password',
      'hunter22',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${URL_OF_PAGE}\n`);
    expect(stderr).toContain(`Request ${REQUEST_ID}: up to 3 uploads, into folder d1.`);
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/requests',
        query: '',
        body: { title: 'Signed policies', maxUploads: 3, password: 'hunter22', emailAllowlist: ['ann@example.com'] },
      },
    ]);
  });

  it('create adds a QR code of the link on a terminal: ANSI blocks with colours, plain blocks with NO_COLOR', async () => {
    const coloured = await sharedown(['requests', 'create', 'Signed policies'], { tty: true });
    const lines = coloured.stdout.split('\n');
    expect(lines[0]).toBe(URL_OF_PAGE);
    expect(coloured.stdout).toContain('Scan with a phone to open the upload page:');
    expect(coloured.stdout).toContain('\u001b[47m');
    expect(coloured.stdout).toMatch(/[▀▄█]/);
    const plain = await sharedown(['requests', 'create', 'Signed policies'], { tty: true, env: { NO_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout.split('\n').filter((line) => /[▀▄█]/.test(line)).length).toBeGreaterThan(10);
  });

  it('create --json prints the api answer unchanged and no QR code, even on a terminal', async () => {
    const { stdout } = await sharedown(['requests', 'create', '--title', 'Signed policies', '--json'], { tty: true });
    expect(JSON.parse(stdout)).toEqual({ request: REQUEST, url: URL_OF_PAGE });
  });

  it('create without a title is a usage error that calls nothing', async () => {
    const { code, stderr } = await sharedown(['requests', 'create']);
    expect(code).toBe(2);
    expect(stderr).toContain('give a title');
    expect(calls).toEqual([]);
  });

  it('ls reads every page by default and filters by state; --json is { requests }', async () => {
    const { code, stdout } = await sharedown(['requests', 'ls', '--state', 'open', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ requests: [REQUEST] });
    expect(calls.map((call) => call.path + call.query)).toEqual(['/api/v1/requests?state=OPEN&limit=200']);
    const table = await sharedown(['requests', 'ls']);
    expect(table.stdout).toContain('Signed policies');
    expect(table.stdout).toContain('1 of 3');
    expect((await sharedown(['requests', 'ls', '--state', 'gone'])).code).toBe(2);
  });

  it('show, close and uploads call their routes; uploads --limit asks for one page', async () => {
    const shown = await sharedown(['requests', 'show', REQUEST_ID]);
    expect(shown.stdout).toContain(URL_OF_PAGE);
    expect(shown.stdout).toContain('ann@example.com');
    const closed = await sharedown(['requests', 'close', REQUEST_ID]);
    expect(closed.stdout).toBe(
      `Closed request “Signed policies” (${REQUEST_ID}): its page now says it is closed. The upload it received stays.\n`,
    );
    const uploads = await sharedown(['requests', 'uploads', REQUEST_ID, '--limit', '5', '--json']);
    expect(JSON.parse(uploads.stdout)).toEqual({ uploads: [UPLOAD], nextCursor: null });
    expect(calls.map((call) => `${call.method} ${call.path}${call.query}`)).toEqual([
      `GET /api/v1/requests/${REQUEST_ID}`,
      `DELETE /api/v1/requests/${REQUEST_ID}`,
      `GET /api/v1/requests/${REQUEST_ID}/uploads?limit=5`,
    ]);
  });

  it('accept and reject take the request and the upload, and say what happened in the user’s language', async () => {
    const accepted = await sharedown(['requests', 'accept', REQUEST_ID, UPLOAD_ID]);
    expect(accepted.stdout).toContain(`Accepted policy.md (${UPLOAD_ID})`);
    const rejected = await sharedown(['requests', 'reject', REQUEST_ID, UPLOAD_ID], { env: { LANG: 'de_DE.UTF-8' } });
    expect(rejected.stdout).toBe(`policy.md (${UPLOAD_ID}) abgelehnt: Die Datei liegt im Papierkorb.\n`);
    const json = await sharedown(['requests', 'reject', REQUEST_ID, UPLOAD_ID, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ upload: { ...UPLOAD, review: 'REJECTED' } });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /api/v1/requests/${REQUEST_ID}/uploads/${UPLOAD_ID}/accept`,
      `POST /api/v1/requests/${REQUEST_ID}/uploads/${UPLOAD_ID}/reject`,
      `POST /api/v1/requests/${REQUEST_ID}/uploads/${UPLOAD_ID}/reject`,
    ]);
    expect((await sharedown(['requests', 'accept', REQUEST_ID])).code).toBe(2);
  });

  it('prints tables and states in the language of LANG', async () => {
    const { stdout } = await sharedown(['requests', 'uploads', REQUEST_ID], { env: { LANG: 'ja_JP.UTF-8' } });
    expect(stdout).toContain('確認待ち');
    expect(stdout).toContain('ファイル');
    const zh = await sharedown(['requests', 'ls'], { env: { LANG: 'zh_CN.UTF-8' } });
    expect(zh.stdout).toContain('开放');
  });
});
