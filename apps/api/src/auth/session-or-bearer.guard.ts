import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BearerAuthGuard } from './tokens/bearer-auth.guard.js';
import { SessionAuthGuard } from './session-auth.guard.js';

/** The prefix of the console's own mount of an operation; every other mount is the token API's. */
export const CONSOLE_PREFIX = '/api/console/';

/**
 * One handler per operation: a controller mounted on `/api/v1`, `/v1` and `/api/console` gets
 * the console session on the console's path and a bearer token (with its scope and rate limit)
 * everywhere else, exactly as the two guards answer on their own paths. `/v1` never takes a
 * session, and the console's path never takes a token.
 */
@Injectable()
export class SessionOrBearerGuard implements CanActivate {
  constructor(
    private readonly session: SessionAuthGuard,
    private readonly bearer: BearerAuthGuard,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    const url = context.switchToHttp().getRequest<FastifyRequest>().url;
    return url.startsWith(CONSOLE_PREFIX) ? this.session.canActivate(context) : this.bearer.canActivate(context);
  }
}
