import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BearerAuthGuard } from './tokens/bearer-auth.guard.js';
import { SessionAuthGuard } from './session-auth.guard.js';

/** Whether `url` is on the token API (`/api/v1`, `/v1`); every other mount of an operation is the console's. */
export function isTokenApiPath(url: string): boolean {
  return url.startsWith('/api/v1/') || url.startsWith('/v1/');
}

/**
 * One handler per operation: a controller mounted on `/api/v1`, `/v1` and a console path
 * (`/api/console/…`, or a console route the contract names elsewhere, such as `/api/audit`) gets a
 * bearer token (with its scope and rate limit) on the token API's paths and the console session on
 * every other, exactly as the two guards answer on their own paths. `/v1` never takes a session,
 * and the console's paths never take a token.
 */
@Injectable()
export class SessionOrBearerGuard implements CanActivate {
  constructor(
    private readonly session: SessionAuthGuard,
    private readonly bearer: BearerAuthGuard,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    const url = context.switchToHttp().getRequest<FastifyRequest>().url;
    return isTokenApiPath(url) ? this.bearer.canActivate(context) : this.session.canActivate(context);
  }
}
