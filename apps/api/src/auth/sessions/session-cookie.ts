import type { FastifyReply, FastifyRequest } from 'fastify';
import { maskedIpPrefix } from '../../common/client-address.js';
import type { Runtime } from '../../common/runtime.js';
import { SESSION_COOKIE, type SessionOrigin, type SignInMethod } from './sessions.service.js';

/** The console's session cookie: HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https. */
export function setSessionCookie(reply: FastifyReply, runtime: Runtime, session: { cookieValue: string; expiresAt: Date }): void {
  reply.setCookie(SESSION_COOKIE, session.cookieValue, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: runtime.env.PUBLIC_URL.startsWith('https:'),
    expires: session.expiresAt,
  });
}

/** What a new session records about the request that started it. */
export function sessionOriginOf(request: FastifyRequest, method: SignInMethod): SessionOrigin {
  const userAgent = request.headers['user-agent'];
  return { method, userAgent: typeof userAgent === 'string' ? userAgent : undefined, ipPrefix: maskedIpPrefix(request.ip) };
}
