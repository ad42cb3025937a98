import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ApiTokensService } from './api-tokens.service.js';
import type { AuthenticatedRequest } from './auth-context.js';
import { bearerOf } from './bearer-auth.guard.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';

/**
 * Console routes: a session cookie only. A bearer token is refused (tokens cannot manage
 * tokens or webhooks). Requests must come from our own origin: with SameSite=Lax cookies,
 * rejecting foreign and `null` Origins closes the remaining CSRF paths.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly tokens: ApiTokensService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const presented = bearerOf(request);
    if (presented !== null) {
      const identity = presented ? await this.tokens.authenticate(presented) : 'invalid';
      if (typeof identity === 'object') throw new AppError(ErrorCode.FORBIDDEN, 'API 令牌不能访问控制台接口，请使用控制台会话');
      throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌无效或已撤销');
    }
    assertSameOrigin(request, this.runtime);
    const session = await this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
    if (!session) throw new AppError(ErrorCode.UNAUTHENTICATED, '未登录或会话已过期');
    request.auth = { user: session.user, source: 'session', tokenId: null, sessionId: session.sessionId };
    return true;
  }
}

/**
 * A request that names its origin must name PUBLIC_URL's, whatever its method: a foreign or
 * `null` Origin (sandboxed frames, data: URLs, redirects across sites) never acts with the
 * session. The origin comes from configuration only, never from the Host header a client sends.
 * Requests without Origin (same-origin GETs, non-browser clients) are not cross-site requests.
 */
export function assertSameOrigin(request: AuthenticatedRequest, runtime: Runtime): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (origin !== new URL(runtime.env.PUBLIC_URL).origin) {
    throw new AppError(ErrorCode.FORBIDDEN, '跨站请求被拒绝');
  }
}
