import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../auth/sessions/sessions.service.js';
import { clientKeyOf } from '../common/client-address.js';
import { failureText } from '../common/error-envelope.filter.js';
import { redactUrl } from '../common/redact.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { sendParts } from '../http/reply-parts.js';
import type { CookieToSet, PageParts, ViewerAnswer, ViewerRequest } from './visitor/viewer-answer.js';
import { LANGUAGE_COOKIE, negotiateLocale } from './pages/viewer-locale.js';
import { ViewerPresenter } from './pages/viewer-presenter.js';

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; media-src 'self' data: https: http:; " +
  "font-src 'self'; frame-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The headers every viewer answer carries, in their order (lower-case, as Node writes them). */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex, nofollow, noarchive',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  // The words of a page follow the visitor's language: nothing in between may hand one visitor's page to another.
  vary: 'Accept-Language, Cookie',
  'content-type': 'text/html; charset=utf-8',
};

function isPageParts(body: ViewerAnswer['body']): body is PageParts {
  return typeof body !== 'string' && !Buffer.isBuffer(body);
}

/**
 * Between Fastify and the viewer: reads what the viewer needs from a request, and writes its
 * answers with the security headers every viewer answer carries (strict CSP, nosniff, referrer
 * policy, noindex, no caching, no framing).
 */
@Injectable()
export class ViewerHttp {
  private readonly logger = new Logger('Viewer');
  readonly publicOrigin: string;
  readonly renderOrigin: string;

  /**
   * The Set-Cookie text of each shared cookie object (CookieToSet.shared), made once: a cookie-less
   * visitor's initial cookie is the same for every answer to that address and browser, and
   * serializing it cost each such view about 1.5 µs. Gone with the object.
   */
  private readonly sharedCookieTexts = new WeakMap<CookieToSet, string>();

  /** The headers of an HTML share's frame document: sandboxed, framed by the render origin only. */
  private readonly frameHeaders: Readonly<Record<string, string>>;

  constructor(
    private readonly pages: ViewerPresenter,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.publicOrigin = new URL(runtime.env.PUBLIC_URL).origin;
    this.renderOrigin = new URL(runtime.env.RENDER_URL).origin;
    this.frameHeaders = {
      'content-security-policy': `sandbox allow-scripts allow-popups; frame-ancestors ${this.renderOrigin}`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex, nofollow, noarchive',
      'cache-control': 'no-store',
      'cross-origin-resource-policy': 'same-origin',
      'content-type': 'text/html; charset=utf-8',
    };
  }

  /** An HTML share's frame document (a HEAD learns its headers only). */
  sendFrame(request: FastifyRequest, reply: FastifyReply, body: Buffer): void {
    reply.status(200);
    // sendParts merges these into a new object: the shared one is never written to.
    if (request.method !== 'HEAD') sendParts(reply, [body], this.frameHeaders);
    else reply.headers(this.frameHeaders).send('');
  }

  /** Runs a viewer action and sends its answer; `after` work (webhook events) follows the answer. */
  async answer(request: FastifyRequest, reply: FastifyReply, produce: () => Promise<ViewerAnswer>): Promise<void> {
    if (
      this.renderOrigin !== this.publicOrigin &&
      this.originOf(request) === this.publicOrigin &&
      !request.url.startsWith('/s/_')
    ) {
      // Documents are only ever shown on the render origin, where the visitor cookie lives.
      this.send(request, reply, { status: 302, body: '', location: `${this.runtime.env.RENDER_URL}${request.url}` });
      return;
    }
    let result: ViewerAnswer;
    try {
      result = await produce();
    } catch (error) {
      this.logger.error(`request ${request.id} ${request.method} ${redactUrl(request.url)} failed: ${failureText(error)}`);
      result = this.pages.serverFailure(this.toViewerRequest(request), error);
    }
    this.send(request, reply, result);
    // One shared handler: no closure per view waits with the visit log's batch.
    if (result.after) result.after().catch(this.afterFailed);
  }

  private readonly afterFailed = (error: unknown): void => {
    this.logger.warn(`after-view task failed: ${String(error)}`);
  };

  send(request: FastifyRequest, reply: FastifyReply, answer: ViewerAnswer): void {
    // Every header in one object, handed over at once: no reply.header() call per header.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
    if (answer.location) headers.location = answer.location;
    Object.assign(headers, PAGE_HEADERS);
    // A page's type is HTML unless the answer says otherwise (a document request's JSON answer).
    if (answer.headers?.['Content-Type']) headers['content-type'] = answer.headers['Content-Type'];
    const cookies = this.cookieHeader(reply, answer.cookies ?? []);
    if (cookies !== undefined) headers['set-cookie'] = cookies;
    reply.status(answer.status);
    // A document's page, the hot path, goes out in parts (reply-parts.ts).
    if (request.method !== 'HEAD' && isPageParts(answer.body)) sendParts(reply, answer.body, headers);
    else reply.headers(headers).send(request.method === 'HEAD' ? '' : answer.body);
  }

  /**
   * The answer's cookies as its Set-Cookie header, written by `send` and not through
   * reply.setCookie, which leaves them to an onSend hook that a page sent in parts (reply-parts.ts)
   * never reaches. Serialized by @fastify/cookie as setCookie does, to the same bytes: a cookie set
   * twice keeps its first place and its last value.
   */
  private cookieHeader(reply: FastifyReply, cookies: readonly CookieToSet[]): string | string[] | undefined {
    if (cookies.length === 0) return undefined;
    const secure = this.runtime.env.RENDER_URL.startsWith('https:');
    const serialized = new Map<string, string>();
    for (const cookie of cookies) {
      const path = cookie.path ?? '/s/';
      let text = cookie.shared ? this.sharedCookieTexts.get(cookie) : undefined;
      if (text === undefined) {
        text = reply.server.serializeCookie(cookie.name, cookie.value, {
          httpOnly: true,
          sameSite: 'lax',
          secure: cookie.name === SESSION_COOKIE ? this.runtime.env.PUBLIC_URL.startsWith('https:') : secure,
          path,
          ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}),
        });
        if (cookie.shared) this.sharedCookieTexts.set(cookie, text);
      }
      serialized.set(`${cookie.name};${path}`, text);
    }
    const values = [...serialized.values()];
    return values.length === 1 ? values[0] : values;
  }

  originOf(request: FastifyRequest): string {
    return `${request.protocol}://${request.host}`;
  }

  toViewerRequest(request: FastifyRequest): ViewerRequest {
    const origin = this.originOf(request);
    const claimed = request.headers.origin;
    const form: Record<string, string> = {};
    if (request.method === 'POST' && request.body && typeof request.body === 'object') {
      for (const [key, value] of Object.entries(request.body as Record<string, unknown>)) {
        const first = Array.isArray(value) ? value[0] : value;
        if (typeof first === 'string') form[key] = first;
      }
    }
    const referer = request.headers.referer;
    return {
      locale: negotiateLocale(
        request.cookies?.[LANGUAGE_COOKIE],
        request.headers['accept-language'],
        this.runtime.env.DEFAULT_LOCALE,
      ),
      method: request.method,
      path: request.url,
      cookies: request.cookies ?? {},
      userAgent: request.headers['user-agent'],
      ip: clientKeyOf(request),
      referer: typeof referer === 'string' ? referer.slice(0, 2048) : undefined,
      form,
      // Only the configured origins count: the Host header is the client's to choose.
      sameOrigin: claimed === undefined || claimed === this.publicOrigin || claimed === this.renderOrigin,
      origin,
      doNotTrack: request.headers.dnt === '1' || request.headers['sec-gpc'] === '1',
    };
  }
}
