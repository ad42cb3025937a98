import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ApiTokensService } from './api-tokens.service.js';
import type { AuthenticatedRequest } from './auth-context.js';

export function bearerOf(request: AuthenticatedRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/** Every `/v1` route: a valid API token, then one token from that token's per-minute bucket. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const presented = bearerOf(request);
    if (presented === null) throw new AppError(ErrorCode.UNAUTHENTICATED, '缺少 Authorization: Bearer 令牌');
    const identity = presented ? await this.tokens.authenticate(presented) : null;
    if (!identity) throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌无效或已撤销');

    const limit = identity.rateLimitPerMinute;
    const decision = await this.limiter.consume(`token:${identity.tokenId}`, limit, 60);
    reply.header('X-RateLimit-Limit', String(limit));
    reply.header('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      throw new AppError(ErrorCode.RATE_LIMITED, `请求过于频繁：该令牌每分钟限 ${limit} 次，请 ${decision.retryAfterSeconds} 秒后重试`, {
        'Retry-After': String(decision.retryAfterSeconds),
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': '0',
      });
    }
    request.auth = { user: identity.user, source: 'token', tokenId: identity.tokenId, sessionId: null };
    return true;
  }
}
