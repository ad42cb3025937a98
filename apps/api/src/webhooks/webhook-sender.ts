import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, errors as undiciErrors } from 'undici';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { signatureOf } from './webhook-signature.js';
import { ForbiddenTargetError, bareHost, isForbiddenAddress, publicOnlyLookup, WebhookTargetError } from './webhook-target.js';

export const DELIVERY_TIMEOUT_MS = 5_000;
export const RESPONSE_BODY_LIMIT_BYTES = 1024;
export const WEBHOOK_USER_AGENT = 'Sharedown-Webhooks/1.0';

export type DeliveryStatus = 'success' | 'failed' | 'timeout' | 'error';

export interface DeliveryRequest {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  /** The serialized body; these exact bytes are signed and sent. */
  body: Buffer;
}

export interface DeliveryOutcome {
  status: DeliveryStatus;
  responseCode: number | null;
  durationMs: number;
  /** The first 1 KB of the response body, or why no response came. */
  responseBody: string | null;
}

class DeliveryTimeout extends Error {}

/** Sends one signed webhook POST: one attempt, no redirects, 5 s for everything from DNS to the body. */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly allowPrivate: boolean;
  private readonly agent: Agent;

  constructor(@Inject(RUNTIME) runtime: Runtime) {
    this.allowPrivate = runtime.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    this.agent = new Agent({
      connect: { timeout: DELIVERY_TIMEOUT_MS, ...(this.allowPrivate ? {} : { lookup: publicOnlyLookup }) },
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
      connections: 32,
    });
  }

  async send(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeliveryTimeout()), DELIVERY_TIMEOUT_MS);
    let responseCode: number | null = null;
    try {
      const url = new URL(request.url);
      this.refuseForbiddenLiteral(url);
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': WEBHOOK_USER_AGENT,
          'X-Service-Event': request.event,
          'X-Service-Signature': signatureOf(request.secret, request.body),
          'X-Service-Delivery': request.deliveryId,
        },
        body: request.body,
        signal: controller.signal,
      });
      responseCode = response.statusCode;
      const responseBody = await readPrefix(response.body, RESPONSE_BODY_LIMIT_BYTES);
      const status = responseCode >= 200 && responseCode < 300 ? 'success' : 'failed';
      return { status, responseCode, durationMs: elapsed(), responseBody };
    } catch (error) {
      if (controller.signal.aborted || isTimeout(error)) {
        return {
          status: 'timeout',
          responseCode,
          durationMs: elapsed(),
          responseBody: `${DELIVERY_TIMEOUT_MS / 1000} 秒内未完成`,
        };
      }
      return { status: 'error', responseCode, durationMs: elapsed(), responseBody: describe(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  private refuseForbiddenLiteral(url: URL): void {
    // A socket given an IP literal never calls lookup, so literals are checked here.
    const host = bareHost(url);
    if (!this.allowPrivate && isIP(host) && isForbiddenAddress(host)) throw new ForbiddenTargetError(host, host);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

/** Reads at most `limit` bytes, then drops the connection rather than download the rest. */
async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, limit);
  // A cut may split a character; PostgreSQL text also refuses NUL.
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/\uFFFD$/, '')
    .replace(/\u0000/g, '');
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof DeliveryTimeout ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  );
}

function describe(error: unknown): string {
  if (error instanceof WebhookTargetError) return error.message;
  const cause = error as NodeJS.ErrnoException;
  if (cause?.cause instanceof WebhookTargetError) return cause.cause.message;
  const code = cause?.code ? `${cause.code}: ` : '';
  return `请求失败：${code}${cause?.message ?? String(error)}`.slice(0, RESPONSE_BODY_LIMIT_BYTES);
}
