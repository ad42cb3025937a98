import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unwrap } from '@sharedown/contract';
import type { TestUser } from './app.js';

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
  /** Send the status and headers at once, the body only after this long. */
  bodyDelayMs?: number;
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
        if (!answer.bodyDelayMs) {
          res.end(answer.body ?? '');
          return;
        }
        res.flushHeaders();
        setTimeout(() => res.destroyed || res.end(answer.body ?? ''), answer.bodyDelayMs).unref();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  }
}

export interface SharedDocument {
  fileId: string;
  fileName: string;
  shareId: string;
  token: string;
  url: string;
}

/** A share whose views emit webhook events: uploads a Markdown document through the REST API, waits for its scan to settle clean, and shares it. */
export async function shareMarkdown(
  baseUrl: string,
  user: TestUser,
  name: string,
  content = '# Hello\n\nSome text.\n',
): Promise<SharedDocument> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/markdown' }), name);
  const uploaded = await fetch(`${baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  if (!uploaded.ok) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
  const { file } = (await uploaded.json()) as { file: { id: string; name: string } };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const current = await unwrap(user.api.GET('/api/v1/files/{id}', { params: { path: { id: file.id } } }));
    if (current.scanStatus === 'CLEAN') break;
    if (current.scanStatus !== 'PENDING') throw new Error(`scan ended ${current.scanStatus}`);
    if (Date.now() > deadline) throw new Error('scan did not settle');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { share, url } = await unwrap(user.api.POST('/api/v1/shares', { body: { fileId: file.id } }));
  return { fileId: file.id, fileName: file.name, shareId: share.id, token: share.token, url };
}
