import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { postRaw } from '../support/raw-http.js';
import { documentForm, sql, uploadFile } from '../support/uploads.js';

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

const TOO_DEEP = { error: '请求体嵌套层级过深：最多 32 层', code: 'VALIDATION' };
const SHARE_TOO_DEEP = { error: 'share 字段嵌套层级过深：最多 32 层', code: 'VALIDATION' };
const INVISIBLE_FILE = { error: '文件名不能包含双向文本控制符或零宽字符', code: 'VALIDATION' };
const INVISIBLE_FOLDER = { error: '文件夹名不能包含双向文本控制符或零宽字符', code: 'VALIDATION' };

const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** About 18 KB each: 3,000 levels, far past the limit and deep enough to exhaust a recursive validator. */
const DEEP_BODIES = [
  ['3,000 nested objects', nestedObjects(3000)],
  ['3,000 nested arrays', nestedArrays(3000)],
] as const;

/** Invisible characters that make a name read differently, one of each kind. */
const INVISIBLE_NAMES = [
  'invoice\u202Etxt.html', // RIGHT-TO-LEFT OVERRIDE: shows as invoicelmth.txt
  'a\u202Ab.md',
  'a\u2066b.md',
  'a\u2069b.md',
  'pay\u200Bpal.md',
  'a\u200Db.md',
  'a\u200Fb.md',
  'a\u061Cb.md',
  '\uFEFFa.md',
  'a\u2060b.md',
  'a\u2064b.md',
  'a\u180Eb.md',
];

/**
 * Sends raw bytes on a fresh connection and parses the one answer, so the request line and
 * headers reach the server exactly as written (fetch would normalise or refuse them).
 */
function rawExchange(port: number, request: string): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let raw = Buffer.alloc(0);
    const finish = () => {
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const head = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = raw.subarray(split + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return false;
      socket.destroy();
      resolve({ status: Number(head[0]!.split(' ')[1]), headers, text: body.toString('utf8') });
      return true;
    };
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      finish();
    });
    socket.on('close', () => {
      if (!finish()) reject(new Error(`connection closed without a whole answer: ${raw.toString('utf8').slice(0, 300)}`));
    });
    socket.on('error', () => {
      // A server that answers and closes may reset the connection; 'close' decides.
    });
  });
}

describe('hostile input', () => {
  let app: RunningApp;
  let alice: TestUser;
  let databaseUrl: string;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    databaseUrl = await app.databaseUrl();
  });
  afterAll(async () => app?.cleanup());

  async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text: the assertions below show it
    }
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: parsed };
  }

  const bearer = () => ({ authorization: `Bearer ${alice.token}` });
  const session = () => ({ cookie: alice.cookie, origin: app.baseUrl });
  const asConsole = (method: string, path: string, body?: unknown) =>
    send(method, path, body === undefined ? undefined : JSON.stringify(body), session());

  function expectEnvelope(
    answer: Answer,
    status: number,
    envelope: { error: string; code: string; field?: string },
    label = '',
  ): void {
    expect(answer.status, `${label} ${JSON.stringify(answer.body)}`).toBe(status);
    expect(answer.contentType, label).toMatch(/^application\/json/);
    expect(answer.body, label).toEqual(envelope);
  }

  async function count(query: string, params: unknown[] = []): Promise<number> {
    const [row] = await sql<{ n: number }>(databaseUrl, `SELECT count(*)::int AS n FROM ${query}`, params);
    return row!.n;
  }

  async function usedBytes(): Promise<number> {
    return (await alice.api.GET('/api/v1/me')).data!.user.usedBytes;
  }

  async function freshFile(name: string): Promise<string> {
    const { data, response } = await uploadFile(alice.api, name, '# hello');
    expect(response.status).toBe(200);
    return data!.file.id;
  }

  async function freshFolder(name: string): Promise<string> {
    const created = await asConsole('POST', '/api/console/folders', { name });
    expect(created.status).toBe(200);
    return (created.body as { folder: { id: string } }).folder.id;
  }

  describe('deeply nested JSON', () => {
    it.each(DEEP_BODIES)(
      '%s: 400 VALIDATION on the sign-in and registration routes, without an account',
      async (_label, deep) => {
        const users = await count('users');
        for (const path of ['/api/auth/login', '/api/auth/register']) {
          expectEnvelope(await send('POST', path, deep), 400, TOO_DEEP, path);
        }
        expect(await count('users')).toBe(users);
      },
    );

    it.each(DEEP_BODIES)(
      '%s: 400 VALIDATION on the token routes for shares and validation, nothing written',
      async (_label, deep) => {
        const shares = await count('shares');
        const tokens = await count('api_tokens WHERE user_id = $1', [alice.userId]);
        const folders = await count('folders WHERE user_id = $1', [alice.userId]);
        for (const path of ['/api/v1/shares', '/v1/shares', '/api/v1/validate', '/v1/validate']) {
          expectEnvelope(await send('POST', path, deep, bearer()), 400, TOO_DEEP, path);
        }
        for (const path of [
          '/api/console/shares',
          '/api/console/validate',
          '/api/tokens',
          '/api/webhooks',
          '/api/console/folders',
        ]) {
          expectEnvelope(await send('POST', path, deep, session()), 400, TOO_DEEP, path);
        }
        expect(await count('shares')).toBe(shares);
        expect(await count('api_tokens WHERE user_id = $1', [alice.userId])).toBe(tokens);
        expect(await count('folders WHERE user_id = $1', [alice.userId])).toBe(folders);
        expect(await count('webhooks WHERE user_id = $1', [alice.userId])).toBe(0);
      },
    );

    it('refuses the depth before the fields: deep inside a known field, and one level past the limit', async () => {
      const fileId = await freshFile('depth-boundary.md');
      const inField = JSON.stringify({ fileId, emailAllowlist: 'X' }).replace('"X"', nestedArrays(3000));
      expectEnvelope(await send('POST', '/api/v1/shares', inField, bearer()), 400, TOO_DEEP, 'inside emailAllowlist');
      // 32 levels in all (the outer object and 31 arrays) reach validation, 33 do not.
      const atLimit = JSON.stringify({ fileId, emailAllowlist: 'X' }).replace('"X"', nestedArrays(31));
      const validated = await send('POST', '/api/v1/shares', atLimit, bearer());
      expect(validated.status).toBe(400);
      expect(validated.body).toMatchObject({ code: 'VALIDATION' });
      expect((validated.body as { error: string }).error).toContain('emailAllowlist');
      const pastLimit = JSON.stringify({ fileId, emailAllowlist: 'X' }).replace('"X"', nestedArrays(32));
      expectEnvelope(await send('POST', '/api/v1/shares', pastLimit, bearer()), 400, TOO_DEEP, 'one past the limit');
      expect(await count('shares WHERE file_id = $1', [fileId])).toBe(0);
    });

    it.each(DEEP_BODIES)(
      '%s in the multipart share field: 400 VALIDATION, neither file nor share written',
      async (_label, deep) => {
        const before = await usedBytes();
        const files = await count('files WHERE user_id = $1', [alice.userId]);
        const shares = await count('shares');
        const plain = await alice.api.POST('/api/v1/files', {
          body: documentForm('deep-share.md', '# x', { share: deep }) as never,
        });
        expect(plain.response.status).toBe(400);
        expect(plain.response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(plain.error).toEqual(SHARE_TOO_DEEP);
        // The same field declared as JSON is parsed by the multipart plugin first.
        const boundary = 'hostile-boundary';
        const body = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="share"\r\nContent-Type: application/json\r\n\r\n${deep}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="deep-share.md"\r\nContent-Type: text/markdown\r\n\r\n# x\r\n` +
            `--${boundary}--\r\n`,
        );
        const typed = await postRaw(`${app.baseUrl}/api/v1/files`, `multipart/form-data; boundary=${boundary}`, body, bearer());
        expect(typed.status).toBe(400);
        expect(typed.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(typed.body)).toEqual(SHARE_TOO_DEEP);
        expect(await count('files WHERE user_id = $1', [alice.userId])).toBe(files);
        expect(await count('files WHERE name = $1', ['deep-share.md'])).toBe(0);
        expect(await count('shares')).toBe(shares);
        expect(await usedBytes()).toBe(before);
      },
    );

    it('refuses 100,000 levels in a JSON-typed share field too (too deep even to serialise again)', async () => {
      const boundary = 'hostile-boundary';
      const body = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="share"\r\nContent-Type: application/json\r\n\r\n${nestedArrays(100_000)}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="deeper.md"\r\n\r\n# x\r\n--${boundary}--\r\n`,
      );
      const answer = await postRaw(`${app.baseUrl}/api/v1/files`, `multipart/form-data; boundary=${boundary}`, body, bearer());
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual(SHARE_TOO_DEEP);
      expect(await count('files WHERE name = $1', ['deeper.md'])).toBe(0);
    });

    it('left no stack overflow in the log', () => {
      expect(app.logs()).not.toMatch(/Maximum call stack|RangeError|TransformOperationExecutor/);
    });
  });

  describe('control characters in names', () => {
    it('token names: 400 VALIDATION and no token row', async () => {
      const tokens = await count('api_tokens WHERE user_id = $1', [alice.userId]);
      for (const name of ['a\u0000b', 'a\u001bb', 'line\nbreak', 'a\u007fb', 'a\u0085b']) {
        expectEnvelope(
          await asConsole('POST', '/api/tokens', { name }),
          400,
          { error: 'name 不能包含控制字符', code: 'VALIDATION', field: 'name' },
          JSON.stringify(name),
        );
      }
      expect(await count('api_tokens WHERE user_id = $1', [alice.userId])).toBe(tokens);
      const ordinary = await asConsole('POST', '/api/tokens', { name: '部署 CI (2)' });
      expect(ordinary.status).toBe(200);
    });

    it('webhook url and events: 400 VALIDATION and no webhook row', async () => {
      const url = `${app.baseUrl}/hook`;
      expectEnvelope(
        await asConsole('POST', '/api/webhooks', { url: `${url}\u0000`, events: ['share_visited'] }),
        400,
        { error: 'url 不能包含控制字符', code: 'VALIDATION', field: 'url' },
        'url',
      );
      expectEnvelope(
        await asConsole('POST', '/api/webhooks', { url, events: ['share_visited\u0000'] }),
        400,
        { error: 'events 的每一项 不能包含控制字符', code: 'VALIDATION', field: 'events' },
        'events',
      );
      expect(await count('webhooks WHERE user_id = $1', [alice.userId])).toBe(0);
    });

    it('folder names on create and rename, file names on rename: refused, nothing changed', async () => {
      const folders = await count('folders WHERE user_id = $1', [alice.userId]);
      expectEnvelope(await asConsole('POST', '/api/console/folders', { name: 'a\u0000b' }), 400, {
        error: '文件夹名不能包含控制字符',
        code: 'VALIDATION',
      });
      expect(await count('folders WHERE user_id = $1', [alice.userId])).toBe(folders);
      const folderId = await freshFolder('control-rename');
      expectEnvelope(await asConsole('PATCH', `/api/console/folders/${folderId}`, { name: 'x\u0007' }), 400, {
        error: '文件夹名不能包含控制字符',
        code: 'VALIDATION',
      });
      const fileId = await freshFile('control-rename.md');
      expectEnvelope(await asConsole('PATCH', `/api/console/files/${fileId}`, { name: 'a\u0000b.md' }), 400, {
        error: '文件名不能包含控制字符',
        code: 'VALIDATION',
      });
      const [folder] = await sql<{ name: string }>(databaseUrl, 'SELECT name FROM folders WHERE id = $1', [folderId]);
      const [file] = await sql<{ name: string }>(databaseUrl, 'SELECT name FROM files WHERE id = $1', [fileId]);
      expect([folder!.name, file!.name]).toEqual(['control-rename', 'control-rename.md']);
    });

    it('upload names: 400 VALIDATION and no file row', async () => {
      const files = await count('files WHERE user_id = $1', [alice.userId]);
      const { response, error } = await uploadFile(alice.api, 'nul\u0000name.md', '# x');
      expect(response.status).toBe(400);
      expect(error).toEqual({ error: '文件名不能包含控制字符', code: 'VALIDATION' });
      expect(await count('files WHERE user_id = $1', [alice.userId])).toBe(files);
    });

    it('owner segment and file search: 400 VALIDATION, not a database error', async () => {
      const account = await asConsole('PATCH', '/api/console/account', { segment: 'abc\u0000' });
      expect(account.status).toBe(400);
      expect(account.body).toMatchObject({ code: 'VALIDATION' });
      const [user] = await sql<{ segment: string }>(databaseUrl, 'SELECT segment FROM users WHERE id = $1', [alice.userId]);
      expect(user!.segment).toBe(alice.segment);
      expectEnvelope(await send('GET', `/api/console/files?q=${encodeURIComponent('a\u0000b')}`, undefined, session()), 400, {
        error: 'q 不能包含控制字符',
        code: 'VALIDATION',
        field: 'q',
      });
      expectEnvelope(
        await send('GET', `/api/console/files?folderId=${encodeURIComponent('\u0000')}`, undefined, session()),
        400,
        {
          error: 'folderId 不能包含控制字符',
          code: 'VALIDATION',
          field: 'folderId',
        },
      );
    });
  });

  describe('requests the router or the HTTP parser refuse', () => {
    const get = (path: string, extra = '') =>
      rawExchange(
        app.port,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nAuthorization: Bearer ${alice.token}\r\n${extra}Connection: close\r\n\r\n`,
      );

    it('an undecodable path: 400 VALIDATION in the envelope', async () => {
      for (const path of ['/api/v1/files/%ff', '/v1/files/%ff', '/api/v1/files/%E0%A4%A', '/api/console/files/%c0%af']) {
        const answer = await get(path);
        expect(answer.status, path).toBe(400);
        expect(answer.headers['content-type'], path).toMatch(/^application\/json/);
        expect(JSON.parse(answer.text), path).toEqual({ error: '请求地址包含无法解码的字符', code: 'VALIDATION' });
      }
    });

    it('an undecodable viewer link: 404 NOT_FOUND, never a 500', async () => {
      for (const path of ['/s/%ff', `/s/${alice.segment}/%ff`, '/s/%ff/abc', '/s/_assets/%ff']) {
        const answer = await get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.headers['content-type'], path).toMatch(/^application\/json/);
        expect(JSON.parse(answer.text), path).toEqual({ error: '链接不存在', code: 'NOT_FOUND' });
      }
    });

    it('a 20 KB request header: 431 with code VALIDATION', async () => {
      const answer = await get('/api/v1/me', `X-Padding: ${'x'.repeat(20 * 1024)}\r\n`);
      expect(answer.status).toBe(431);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ error: '请求头过大', code: 'VALIDATION' });
    });

    it('a malformed request: 400 VALIDATION', async () => {
      for (const request of ['NOT A REQUEST\r\n\r\n', `GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`]) {
        const answer = await rawExchange(app.port, request);
        expect(answer.status, JSON.stringify(request)).toBe(400);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(answer.text)).toEqual({ error: '请求格式错误', code: 'VALIDATION' });
      }
    });

    it('keeps serving afterwards', async () => {
      expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
      expect((await alice.api.GET('/api/v1/me')).response.status).toBe(200);
    });
  });

  describe('bidi controls and zero-width characters in names', () => {
    it('uploads through the API and the console: 400 VALIDATION, no file row, quota untouched', async () => {
      const before = await usedBytes();
      const files = await count('files WHERE user_id = $1', [alice.userId]);
      for (const name of INVISIBLE_NAMES) {
        const { response, error } = await uploadFile(alice.api, name, '<p>hi</p>');
        expect(response.status, JSON.stringify(name)).toBe(400);
        expect(error, JSON.stringify(name)).toEqual(INVISIBLE_FILE);
      }
      const form = documentForm('invoice\u202Etxt.html', '<p>hi</p>', { conflict: 'rename' });
      const viaConsole = await fetch(`${app.baseUrl}/api/console/files`, { method: 'POST', headers: session(), body: form });
      expect(viaConsole.status).toBe(400);
      expect(viaConsole.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await viaConsole.json()).toEqual(INVISIBLE_FILE);
      expect(await count('files WHERE user_id = $1', [alice.userId])).toBe(files);
      expect(await usedBytes()).toBe(before);
    });

    it('renames: 400 VALIDATION, the name stays', async () => {
      const fileId = await freshFile('invoice.md');
      for (const name of ['invoice\u202Etxt.html', 'in\u200Bvoice.md', 'invoice.md\uFEFF']) {
        expectEnvelope(
          await asConsole('PATCH', `/api/console/files/${fileId}`, { name }),
          400,
          INVISIBLE_FILE,
          JSON.stringify(name),
        );
      }
      const [file] = await sql<{ name: string }>(databaseUrl, 'SELECT name FROM files WHERE id = $1', [fileId]);
      expect(file!.name).toBe('invoice.md');
    });

    it('folder names on create and rename: 400 VALIDATION, nothing changed', async () => {
      const folders = await count('folders WHERE user_id = $1', [alice.userId]);
      for (const name of ['Reports\u202E', 'a\u2066b', 'a\u200Cb', '\u061Cx']) {
        expectEnvelope(await asConsole('POST', '/api/console/folders', { name }), 400, INVISIBLE_FOLDER, JSON.stringify(name));
      }
      expect(await count('folders WHERE user_id = $1', [alice.userId])).toBe(folders);
      const folderId = await freshFolder('Invoices');
      expectEnvelope(
        await asConsole('PATCH', `/api/console/folders/${folderId}`, { name: 'Invoices\u2067' }),
        400,
        INVISIBLE_FOLDER,
      );
      const [folder] = await sql<{ name: string }>(databaseUrl, 'SELECT name FROM folders WHERE id = $1', [folderId]);
      expect(folder!.name).toBe('Invoices');
    });

    it('still accepts names in right-to-left and other scripts', async () => {
      for (const name of ['تقرير.md', 'דוח.txt', '周报 2024.md', 'Ünïcödé – notes.markdown']) {
        const { response, data } = await uploadFile(alice.api, name, '# x');
        expect(response.status, name).toBe(200);
        expect(data!.file.name).toBe(name);
      }
      expect((await asConsole('POST', '/api/console/folders', { name: 'مجلد' })).status).toBe(200);
    });
  });
  it('reads a JSON body of null as an empty object where every field is optional, never a 5xx', async () => {
    // alice is the instance's first account, so its administrator.
    const invite = await send('POST', '/api/admin/invites', 'null', session());
    expect(invite.status, JSON.stringify(invite.body)).toBeLessThan(300);
    expect(invite.body).toMatchObject({ email: null, url: expect.stringContaining('invite=') });
    const read = await send('POST', '/api/notifications/read', 'null', session());
    expect(read).toMatchObject({ status: 200, body: { unreadCount: 0 } });
    expectEnvelope(await send('POST', '/api/tokens', 'null', session()), 400, {
      error: 'name 长度必须在 1 到 100 个字符之间',
      code: 'VALIDATION',
      field: 'name',
    });
  });
});
