import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Test-only request headers the proxy acts on and strips: replicas never see them. */
export const CLIENT_IP_HEADER = 'x-test-client-ip';
export const BACKEND_HEADER = 'x-test-backend';
export const FORWARDED_PROTO_HEADER = 'x-test-forwarded-proto';

export interface Backend {
  host: string;
  port: number;
}

export interface ProxyStats {
  /** Requests answered by a backend (any status). */
  forwarded: number;
  /** Connections a backend refused before anything was sent; the request went to the next one. */
  refusedRetries: number;
  /** 502 answers the proxy wrote itself: no backend reachable, or the backend failed before its headers. */
  badGateway: number;
  /** Answers cut off after their headers went out (the backend died mid-body). */
  aborted: number;
  /** Requests answered per backend index. */
  perBackend: number[];
}

export interface ReverseProxy {
  /** The first listener. */
  url: string;
  port: number;
  backends: Backend[];
  stats: ProxyStats;
  /** Headers that pin one request to backend `index` (no fallback to another one). */
  pin(index: number): Record<string, string>;
  /** One more listener in front of the same backends (a second host name); its URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ReverseProxyOptions {
  backends: Backend[];
  /** The address the proxy connects to backends from: what the backends see as their peer (and trust). */
  localAddress?: string;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own business, never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardable(headers: IncomingHttpHeaders, extraDrop: Set<string> = new Set()): IncomingHttpHeaders {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.includes(name) || extraDrop.has(name)) continue;
    out[name] = value;
  }
  return out;
}

const TEST_HEADERS = new Set([CLIENT_IP_HEADER, BACKEND_HEADER, FORWARDED_PROTO_HEADER]);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A small HTTP reverse proxy in front of the api replicas, as in the production topology:
 * round-robin per request, bodies streamed both ways, the peer appended to X-Forwarded-For and
 * X-Forwarded-Proto/-Host set. A backend that refuses the connection (nothing was sent yet) is
 * skipped for the next one; a backend that fails after that gets a 502 (or a cut answer when its
 * headers already went out), never a retry. One connection per request, so a request is never
 * written to a pooled socket the backend already closed.
 *
 * Tests speak to it through headers it strips: `x-test-client-ip` (the client address it
 * forwards instead of the real peer), `x-test-backend` (pin to one backend),
 * `x-test-forwarded-proto` (the scheme it forwards instead of http).
 */
export async function startReverseProxy(options: ReverseProxyOptions): Promise<ReverseProxy> {
  const backends = options.backends;
  const stats: ProxyStats = { forwarded: 0, refusedRetries: 0, badGateway: 0, aborted: 0, perBackend: backends.map(() => 0) };
  let next = 0;
  const sockets = new Set<Socket>();

  function badGateway(res: ServerResponse, message: string): void {
    stats.badGateway += 1;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`bad gateway: ${message}\n`);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const pinned = single(req.headers[BACKEND_HEADER]);
    const clientIp = single(req.headers[CLIENT_IP_HEADER]) ?? req.socket.remoteAddress ?? '';
    const proto = single(req.headers[FORWARDED_PROTO_HEADER]) ?? 'http';
    const headers = forwardable(req.headers, TEST_HEADERS);
    const prior = single(req.headers['x-forwarded-for']);
    headers['x-forwarded-for'] = prior ? `${prior}, ${clientIp}` : clientIp;
    headers['x-forwarded-proto'] = proto;
    headers['x-forwarded-host'] = req.headers.host ?? '';

    let order: number[];
    if (pinned !== undefined) {
      const index = Number(pinned);
      if (!Number.isInteger(index) || !backends[index]) {
        badGateway(res, `no backend ${pinned}`);
        return;
      }
      order = [index];
    } else {
      const start = next++ % backends.length;
      order = backends.map((_, i) => (start + i) % backends.length);
    }

    let current: ReturnType<typeof httpRequest> | undefined;
    // A client that goes away takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) current?.destroy();
    });

    const attempt = (position: number): void => {
      const index = order[position]!;
      const backend = backends[index]!;
      let connected = false;
      let failed = false;
      const fail = (message: string) => {
        if (failed) return;
        failed = true;
        if (res.destroyed) return; // the client went away first
        if (res.headersSent) {
          stats.aborted += 1;
          res.destroy();
        } else {
          badGateway(res, message);
        }
      };
      const upstream = httpRequest({
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers,
        localAddress: options.localAddress,
        agent: false,
      });
      current = upstream;
      upstream.on('socket', (socket: Socket) => {
        const start = () => {
          connected = true;
          // Only now is the client's body read: a refused connection leaves it untouched for the next backend.
          req.pipe(upstream);
        };
        if (socket.connecting) socket.once('connect', start);
        else start();
      });
      upstream.on('response', (answer) => {
        stats.forwarded += 1;
        stats.perBackend[index]! += 1;
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res);
        answer.on('error', () => undefined);
        answer.on('close', () => {
          if (!answer.complete) fail('answer cut off');
        });
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === 'ECONNREFUSED' && position + 1 < order.length) {
          stats.refusedRetries += 1;
          attempt(position + 1);
          return;
        }
        fail(`${backend.host}:${backend.port} ${error.code ?? error.message}`);
      });
    };
    attempt(0);
  }

  const servers: Server[] = [];
  async function listen(): Promise<string> {
    const server = createServer(handle);
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const url = await listen();
  return {
    url,
    port: Number(new URL(url).port),
    listen,
    backends,
    stats,
    pin: (index) => ({ [BACKEND_HEADER]: String(index) }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
