import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { ApiTokensService } from './api-tokens.service.js';
import type { AuthenticatedRequest } from '../auth-context.js';
import { REQUIRED_SCOPE, type TokenScope } from './token-scope.js';

export function bearerOf(request: AuthenticatedRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * Every `/v1` route: a valid, unexpired API token, then one token from that token's per-minute
 * bucket, then the scope the operation needs (a read-only token cannot change anything).
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const required = this.reflector.getAllAndOverride<TokenScope | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    await this.authorize(http.getRequest<AuthenticatedRequest>(), http.getResponse<FastifyReply>(), required);
    return true;
  }

  /**
   * What `canActivate` does, for a route served without Nest's pipeline (me-route.ts): sets
   * `request.auth`, or throws the AppError to answer.
   */
  async authorize(request: AuthenticatedRequest, reply: FastifyReply, required: TokenScope | undefined): Promise<void> {
    const presented = bearerOf(request);
    if (presented === null) throw new AppError(ErrorCode.UNAUTHENTICATED, '缺少 Authorization: Bearer 令牌');
    const identity = presented ? await this.tokens.authenticate(presented) : 'invalid';
    if (identity === 'expired') throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌已过期');
    if (identity === 'invalid') throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌无效或已撤销');

    const limit = identity.rateLimitPerMinute;
    const decision = await this.limiter.consume(`token:${identity.tokenId}`, limit, 60);
    reply.header('X-RateLimit-Limit', String(limit));
    reply.header('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      // The guard is HTTP already: the bucket's headers go on the reply, which the error's envelope keeps.
      reply.header('X-RateLimit-Remaining', '0');
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        `请求过于频繁：该令牌每分钟限 ${limit} 次，请 ${decision.retryAfterSeconds} 秒后重试`,
        {
          retryAfterSeconds: decision.retryAfterSeconds,
        },
      );
    }
    if (required && !identity.scopes.includes(required)) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        identity.role === 'VIEWER' ? '该令牌的创建者在此工作区中是查看者，不能执行写操作' : '该令牌为只读令牌，不能执行写操作',
      );
    }
    request.auth = {
      user: identity.user,
      actor: identity.actor,
      role: identity.role,
      source: 'token',
      tokenId: identity.tokenId,
      sessionId: null,
    };
  }
}
