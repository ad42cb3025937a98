import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { postRaw } from '../support/raw-http.js';

/** Small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const nasty = [
  '',
  ' ',
  'null',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '\u0000',
  '😀'.repeat(50),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '-1',
  '1e309',
  '{}',
];

function randomValue(depth = 0): unknown {
  switch (Math.floor(random() * (depth > 2 ? 6 : 9))) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick([0, -1, 1, 3.7, 1e308, -1e308, 2 ** 53, 10_000, 3651]);
    case 3:
      return pick(nasty);
    case 4:
      return 'y'.repeat(Math.floor(random() * 200_000));
    case 5:
      return pick(['HTML', 'MARKDOWN', 'TEXT', 'PDF', 'html']);
    case 6:
      return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(depth + 1));
    default: {
      const keys = [
        'content',
        'kind',
        'fileId',
        'name',
        'password',
        'maxVisits',
        'slug',
        'expiresInDays',
        'emailAllowlist',
        'url',
        'events',
        'email',
        '__proto__',
        'constructor',
        pick(nasty),
      ];
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [pick(keys), randomValue(depth + 1)]));
    }
  }
}

interface Operation {
  method: string;
  path: string;
}

describe('fuzzing every route', () => {
  let app: RunningApp;
  let user: TestUser;
  let operations: Operation[];
  const tokens: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    user = await createUser(app.baseUrl);
    // Several tokens at 600/min so the run covers the routes rather than the rate limiter.
    for (let i = 0; i < 6; i++) {
      const created = await user.console.POST('/api/tokens', { body: { name: `fuzz${i}`, rateLimitPerMinute: 600 } });
      tokens.push(created.data!.plaintext);
    }
    const document = await (await fetch(`${app.baseUrl}/api/openapi.json`)).json();
    operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          path: path.startsWith('/api/') || path.startsWith('/s/') || path === '/healthz' ? path : `/v1${path}`,
        })),
    );
  });
  afterAll(async () => app?.cleanup());

  function fill(path: string): string {
    return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pick(nasty)).slice(0, 600) || 'x');
  }

  function credentials(): Record<string, string> {
    const choice = random();
    if (choice < 0.45) return { authorization: `Bearer ${pick(tokens)}` };
    if (choice < 0.8) return { cookie: user.cookie };
    if (choice < 0.9) return { authorization: `Bearer ${encodeURIComponent(pick(nasty)).slice(0, 500) || 'x'}` };
    return {};
  }

  it(`never answers 5xx nor leaks a stack (seed ${SEED})`, async () => {
    const failures: string[] = [];
    const check = (label: string, status: number, body: string, contentType: string | null) => {
      if (status >= 500) failures.push(`${label} → ${status} ${body.slice(0, 200)}`);
      if (/\bat \S+\.(js|ts):\d+|node_modules|QueryFailedError|syntax error at or near/.test(body))
        failures.push(`${label} leaked internals: ${body.slice(0, 200)}`);
      if (status >= 400 && body !== '' && contentType?.includes('application/json')) {
        let parsed: { error?: unknown; code?: unknown } = {};
        try {
          parsed = JSON.parse(body);
        } catch {
          // reported below as a bad envelope
        }
        if (typeof parsed.error !== 'string' || typeof parsed.code !== 'string')
          failures.push(`${label} bad envelope ${body.slice(0, 200)}`);
      }
    };

    for (let round = 0; round < 6; round++) {
      for (const operation of operations) {
        const url = `${app.baseUrl}${fill(operation.path)}`;
        const headers: Record<string, string> = { ...credentials() };
        let body: string | undefined;
        if (operation.method !== 'GET' && (operation.method !== 'DELETE' || random() < 0.2)) {
          headers['content-type'] = pick([
            'application/json',
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
          ]);
          body = random() < 0.15 ? '{"unterminated": ' : JSON.stringify(randomValue());
        }
        const response = await fetch(url, { method: operation.method, headers, body });
        check(
          `${operation.method} ${url.slice(0, 120)}`,
          response.status,
          await response.text(),
          response.headers.get('content-type'),
        );
      }
    }

    // Malformed multipart and invalid UTF-8 at the upload routes.
    const uploadPaths = operations
      .filter((op) => op.method === 'POST' && /files|versions|upload/.test(op.path))
      .map((op) => op.path);
    const bodies: Array<[string, Buffer]> = [
      [
        'multipart/form-data; boundary=xyz',
        Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nunterminated'),
      ],
      ['multipart/form-data', Buffer.from('no boundary at all')],
      [
        'multipart/form-data; boundary=b',
        Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="file"; filename="bad.md"\r\n\r\n\xff\xfe\xc3\x28\r\n--b--\r\n',
          'latin1',
        ),
      ],
      [
        'multipart/form-data; boundary=b',
        Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="../../x.md"\r\n\r\nhello\r\n--b--\r\n'),
      ],
      [
        'multipart/form-data; boundary=b',
        Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="share"\r\n\r\n{not json\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="s.md"\r\n\r\nhi\r\n--b--\r\n',
        ),
      ],
      ['application/json', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ];
    for (const path of uploadPaths) {
      for (const [contentType, payload] of bodies) {
        const url = `${app.baseUrl}${fill(path)}`;
        const result = await postRaw(url, contentType, payload, { authorization: `Bearer ${pick(tokens)}`, cookie: user.cookie });
        check(
          `POST ${path} (${contentType.slice(0, 30)})`,
          result.status,
          result.body,
          String(result.headers['content-type'] ?? ''),
        );
      }
    }

    // The viewer and path tricks outside the documented routes.
    for (const path of [
      '/s/',
      '/s/%2e%2e/%2e%2e/etc/passwd',
      `/s/${'a'.repeat(3000)}`,
      '/s/x/y/z/w',
      '/s/%00',
      '/s/_assets/../../package.json',
      '/api/v1/files/%2e%2e',
      '/v1/shares/%ff',
      '/api/../etc/passwd',
    ]) {
      for (const method of ['GET', 'POST', 'HEAD'] as const) {
        const response = await fetch(`${app.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: method === 'POST' ? 'password=%ff%fe&reason=' + 'r'.repeat(10000) : undefined,
        });
        check(`${method} ${path.slice(0, 80)}`, response.status, await response.text(), response.headers.get('content-type'));
      }
    }

    expect(failures).toEqual([]);
    expect(app.process.exitCode).toBeNull();
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
  }, 240_000);
});
