import { connect } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../common/runtime.js';
import { observeRequests, type FinishedRequest } from '../http/request-observer.js';
import { registerSecurityHeaders } from '../http/security-headers.js';
import type { CookieToSet, ViewerAnswer } from './visitor/viewer-answer.js';
import { ViewerHttp } from './viewer-http.js';
import type { ViewerPresenter } from './pages/viewer-presenter.js';

const ORIGIN = 'https://share.example';
// A page as documentPage builds it: its own head and tail around a large cached document.
const PARTS = [
  Buffer.from('<!doctype html>\n<html lang="en"><body data-copy="1"><article class="sd-doc">'),
  Buffer.from(`<p>${'Grüße, 世界. '.repeat(4000)}</p>`),
  Buffer.from('</article><div class="sd-wm"><span>wm</span></div>\n</body></html>'),
];
const COOKIES: CookieToSet[] = [
  { name: 'sd_visitor', value: 'first', maxAge: 31536000 },
  { name: 'sharedown_session', value: 's.1', path: '/' },
  // Set twice: the last value, in the first place.
  { name: 'sd_visitor', value: 'second', maxAge: 31536000 },
];

/** Two cookie-less visitors' initial cookies: each one object for many answers. */
const SHARED_COOKIE: CookieToSet = Object.freeze({ name: 'sd_visitor', value: 'a.shared', maxAge: 31536000, shared: true });
const OTHER_SHARED_COOKIE: CookieToSet = Object.freeze({ ...SHARED_COOKIE, value: 'a.other' });

/** One request on its own connection; the answer's bytes as they came, the Date line aside. */
function exchange(port: number, method: string, path: string, connection: 'close' | 'keep-alive'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: ${connection}\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    const done = () => {
      socket.destroy();
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/^date: .*$/m, 'date: (now)'),
      );
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = method === 'HEAD' ? 0 : Number(/^content-length: (\d+)$/im.exec(bytes.subarray(0, end).toString())?.[1]);
      if (bytes.length >= end + 4 + length) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
  });
}

describe(ViewerHttp.name, () => {
  const runtime = { env: { PUBLIC_URL: ORIGIN, RENDER_URL: ORIGIN } } as unknown as Runtime;
  const http = new ViewerHttp({} as ViewerPresenter, runtime);
  const finished: FinishedRequest[] = [];
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    // The hooks of create-app.ts that write headers or watch answers, in its order.
    app = Fastify({ genReqId: () => 'request-1' });
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('X-Request-Id', request.id);
      done();
    });
    observeRequests(app, (request) => finished.push(request));
    registerSecurityHeaders(app);
    await app.register(fastifyCookie, { secret: 'k'.repeat(40) });
    const route = (path: string, answer: () => ViewerAnswer) =>
      app.get(path, async (request, reply) => {
        http.send(request, reply, answer());
        return reply;
      });
    route('/joined', () => ({ status: 200, body: Buffer.concat(PARTS), cookies: COOKIES }));
    route('/parts', () => ({ status: 200, body: PARTS, cookies: COOKIES }));
    route('/shared-cookie', () => ({ status: 200, body: PARTS, cookies: [SHARED_COOKIE] }));
    route('/other-shared-cookie', () => ({ status: 200, body: PARTS, cookies: [OTHER_SHARED_COOKIE] }));
    route('/own-cookie', () => ({ status: 200, body: PARTS, cookies: [{ ...SHARED_COOKIE, shared: undefined }] }));
    route('/refused-header', () => ({ status: 200, body: PARTS, headers: { 'X-Note': 'line\nbreak' } }));
    app.get('/frame', async (request, reply) => {
      http.sendFrame(request, reply, Buffer.concat(PARTS));
      return reply;
    });
    // How the frame document was sent before: a header each, then Fastify's own send.
    app.get('/frame-sent', async (request, reply) =>
      reply
        .status(200)
        .header('Content-Security-Policy', `sandbox allow-scripts allow-popups; frame-ancestors ${ORIGIN}`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Robots-Tag', 'noindex, nofollow, noarchive')
        .header('Cache-Control', 'no-store')
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .header('Content-Type', 'text/html; charset=utf-8')
        .send(request.method === 'HEAD' ? '' : Buffer.concat(PARTS)),
    );
    // How ViewerHttp set its cookies before: @fastify/cookie's setCookie, written by its onSend hook.
    app.get('/set-cookie', async (request, reply) => {
      for (const cookie of COOKIES) {
        reply.setCookie(cookie.name, cookie.value, {
          httpOnly: true,
          sameSite: 'lax',
          secure: true,
          path: cookie.path ?? '/s/',
          ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}),
        });
      }
      http.send(request, reply, { status: 200, body: Buffer.concat(PARTS) });
      return reply;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => app?.close());

  it.each(['close', 'keep-alive'] as const)(
    'sends a page in parts with the status, headers and bytes of the page joined (Connection: %s)',
    async (connection) => {
      const joined = await exchange(port, 'GET', '/joined', connection);
      const parts = await exchange(port, 'GET', '/parts', connection);
      expect(parts).toBe(joined);
      const [head, body] = parts.split('\r\n\r\n') as [string, string];
      expect(Buffer.from(body, 'latin1').equals(Buffer.concat(PARTS))).toBe(true);
      expect(head).toContain(`\r\ncontent-length: ${Buffer.concat(PARTS).length}\r\n`);
      expect(head).not.toMatch(/transfer-encoding/i);
      expect(head).toContain('\r\nx-request-id: request-1\r\n');
      expect(head).toContain("\r\ncontent-security-policy: default-src 'none';");
      expect(head).toContain('\r\nx-content-type-options: nosniff\r\n');
    },
  );

  it('answers HEAD with the same headers and no body', async () => {
    const parts = await exchange(port, 'HEAD', '/parts', 'close');
    expect(parts).toBe(await exchange(port, 'HEAD', '/joined', 'close'));
    expect(parts.endsWith('\r\n\r\n')).toBe(true);
  });

  it.each(['GET', 'HEAD'] as const)("sends a frame document's %s as Fastify's own send did, to the byte", async (method) => {
    const frame = await exchange(port, method, '/frame', 'keep-alive');
    expect(frame).toBe(await exchange(port, method, '/frame-sent', 'keep-alive'));
    expect(frame).toContain(`\r\ncontent-security-policy: sandbox allow-scripts allow-popups; frame-ancestors ${ORIGIN}\r\n`);
    expect(frame).not.toContain('x-frame-options');
  });

  it("writes the cookies as @fastify/cookie's setCookie does", async () => {
    const cookies = (answer: string) => answer.split('\r\n').filter((line) => line.startsWith('set-cookie: '));
    const parts = cookies(await exchange(port, 'GET', '/parts', 'close'));
    expect(parts).toEqual(cookies(await exchange(port, 'GET', '/set-cookie', 'close')));
    expect(parts).toEqual([
      'set-cookie: sd_visitor=second; Max-Age=31536000; Path=/s/; HttpOnly; Secure; SameSite=Lax',
      'set-cookie: sharedown_session=s.1; Path=/; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('writes each shared cookie object as it writes the same cookie made for one answer, every time', async () => {
    const cookies = (answer: string) => answer.split('\r\n').filter((line) => line.startsWith('set-cookie: '));
    const own = cookies(await exchange(port, 'GET', '/own-cookie', 'close'));
    expect(own).toEqual(['set-cookie: sd_visitor=a.shared; Max-Age=31536000; Path=/s/; HttpOnly; Secure; SameSite=Lax']);
    const other = ['set-cookie: sd_visitor=a.other; Max-Age=31536000; Path=/s/; HttpOnly; Secure; SameSite=Lax'];
    // Alternating: each object keeps its own text, never the other's.
    for (let i = 0; i < 3; i++) {
      expect(cookies(await exchange(port, 'GET', '/shared-cookie', 'keep-alive'))).toEqual(own);
      expect(cookies(await exchange(port, 'GET', '/other-shared-cookie', 'keep-alive'))).toEqual(other);
    }
  });

  it('lets the request observer see the answer, with its route and status', async () => {
    finished.length = 0;
    await exchange(port, 'GET', '/parts', 'close');
    await expect
      .poll(() => finished.map(({ method, route, statusCode }) => ({ method, route, statusCode })))
      .toEqual([{ method: 'GET', route: '/parts', statusCode: 200 }]);
  });

  it('leaves a header Node refuses to Fastify, which answers the error', async () => {
    const answer = await exchange(port, 'GET', '/refused-header', 'close');
    expect(answer).toMatch(/^HTTP\/1\.1 500 /);
    expect(answer).not.toContain('line');
  });
});
