import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { Signer } from '../../viewer/visitor/signer.js';
import type { OidcAttempt } from './oidc-client.js';

export const OIDC_TRANSACTION_COOKIE = 'sd_oidc';
/** The cookie goes only to the sign-in routes, never to the rest of the service. */
export const OIDC_TRANSACTION_PATH = '/api/auth/oidc';
export const OIDC_TRANSACTION_SECONDS = 10 * 60;
const DEFAULT_RETURN = '/files';

/**
 * Where to go after signing in: a console page or a share link (`/s/…`) on this service. Never an
 * absolute or scheme-relative URL, a backslash trick, the API, or the sign-in pages themselves.
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2048) return DEFAULT_RETURN;
  if (!/^\/[A-Za-z0-9_\-/%.?=&~+]*$/.test(next) || next.includes('//')) return DEFAULT_RETURN;
  const path = next.split('?')[0]!;
  if (path === '/api' || path.startsWith('/api/') || path === '/login' || path === '/register') return DEFAULT_RETURN;
  return next;
}

/**
 * One sign-in attempt between `start` and `callback`: state, nonce, PKCE verifier and the return
 * path, in a signed, HttpOnly, SameSite=Lax cookie that lives ten minutes and is sent only to
 * /api/auth/oidc. The callback clears it whatever the outcome, so an attempt is used once.
 */
@Injectable()
export class OidcTransactions {
  private readonly signer: Signer;
  private readonly secure: boolean;

  constructor(@Inject(RUNTIME) runtime: Runtime) {
    this.signer = new Signer(runtime.sessionSecret, 'oidc-transaction');
    this.secure = runtime.env.PUBLIC_URL.startsWith('https:');
  }

  store(reply: FastifyReply, attempt: OidcAttempt, next: string): void {
    const value = this.signer.seal(
      { s: attempt.state, o: attempt.nonce, v: attempt.codeVerifier, n: next },
      OIDC_TRANSACTION_SECONDS,
    );
    reply.setCookie(OIDC_TRANSACTION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: OIDC_TRANSACTION_PATH,
      maxAge: OIDC_TRANSACTION_SECONDS,
    });
  }

  /** The attempt the cookie carries, when it is authentic and not expired. */
  read(cookie: string | undefined): { attempt: OidcAttempt; next: string } | null {
    const payload = this.signer.open<{ s?: unknown; o?: unknown; v?: unknown; n?: unknown }>(cookie);
    if (!payload || typeof payload.s !== 'string' || typeof payload.o !== 'string' || typeof payload.v !== 'string') return null;
    return { attempt: { state: payload.s, nonce: payload.o, codeVerifier: payload.v }, next: safeReturnPath(payload.n) };
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(OIDC_TRANSACTION_COOKIE, {
      path: OIDC_TRANSACTION_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
    });
  }
}
