import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ApiTokensService } from './api-tokens.service.js';
import type { AuthenticatedRequest } from './auth-context.js';
import { bearerOf } from './bearer-auth.guard.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Console routes: a session cookie only. A bearer token is refused (tokens cannot manage
 * tokens or webhooks). Writes must come from our own origin: with SameSite=Lax cookies,
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
      const identity = presented ? await this.tokens.authenticate(presented) : null;
      if (identity) throw new AppError(ErrorCode.FORBIDDEN, 'API 令牌不能访问控制台接口，请使用控制台会话');
      throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌无效或已撤销');
    }
    assertSameOrigin(request, this.runtime);
    const session = await this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
    if (!session) throw new AppError(ErrorCode.UNAUTHENTICATED, '未登录或会话已过期');
    request.auth = { user: session.user, source: 'session', tokenId: null, sessionId: session.sessionId };
    return true;
  }
}

export function assertSameOrigin(request: AuthenticatedRequest, runtime: Runtime): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = request.headers.host;
  const allowed = new Set([new URL(runtime.env.PUBLIC_URL).origin, `http://${host}`, `https://${host}`]);
  if (origin === 'null' || !allowed.has(origin)) {
    throw new AppError(ErrorCode.FORBIDDEN, '跨站请求被拒绝');
  }
}
