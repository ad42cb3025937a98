import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it: raw header names and the exact body bytes. */
export interface ReceivedRequest {
  path: string;
  method: string;
  /** Header names exactly as sent, in order, paired with their values. */
  rawHeaders: [string, string][];
  headers: IncomingMessage['headers'];
  body: Buffer;
  receivedAt: number;
}

export interface ReceiverResponse {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (headers and body). */
  delayMs?: number;
}

export type Responder = (request: ReceivedRequest) => ReceiverResponse;

/**
 * A real HTTP server on loopback that records every request. Paths choose behaviour through
 * `respond`; the default answers 200.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server?: Server;
  private waiters: Array<() => void> = [];

  constructor(private readonly respond: Responder = () => ({ status: 200, body: 'ok' })) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Resolves once `count` requests have arrived at `path` (any path when omitted). */
  async waitFor(count: number, options: { path?: string; timeoutMs?: number } = {}): Promise<ReceivedRequest[]> {
    const matching = () => (options.path === undefined ? this.requests : this.at(options.path));
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    while (matching().length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`receiver got ${matching().length} of ${count} requests${options.path ? ` at ${options.path}` : ''}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return matching();
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawHeaders: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const received: ReceivedRequest = {
        path: req.url ?? '',
        method: req.method ?? '',
        rawHeaders,
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      this.requests.push(received);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();

      const answer = this.respond(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'Content-Type': 'text/plain; charset=utf-8', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  }
}
