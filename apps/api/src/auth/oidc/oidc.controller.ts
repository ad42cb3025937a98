import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrors } from '../../common/api-errors.decorator.js';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { clientKeyOf } from '../../common/client-address.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { PublicRoute } from '../../openapi/public-route.decorator.js';
import { sessionOriginOf, setSessionCookie } from '../sessions/session-cookie.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { OidcSignInService, type OidcFailure } from './oidc-sign-in.service.js';
import { OIDC_TRANSACTION_COOKIE, OidcTransactions } from './oidc-transaction.js';

/**
 * Single sign-on through the OpenID provider (OIDC_ISSUER_URL): browser navigations, answered with
 * redirects. 404 NOT_FOUND when single sign-on is not configured.
 */
@ApiTags('console')
@Controller('api/auth/oidc')
export class OidcController {
  constructor(
    private readonly signIn: OidcSignInService,
    private readonly transactions: OidcTransactions,
    private readonly sessions: SessionsService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  @Get('start')
  @PublicRoute()
  @ApiOperation({ summary: 'Start single sign-on: redirect to the OpenID provider' })
  @ApiQuery({
    name: 'next',
    required: false,
    description: 'where to go after signing in: a console path or a share link path /s/…',
  })
  @ApiResponse({
    status: 302,
    description: "to the provider's sign-in page (or /login?error=sso when the provider cannot be reached)",
  })
  @ApiErrors(404, 429)
  async start(@Query('next') next: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const started = await this.signIn.start(next, clientKeyOf(request));
    if ('failure' in started) return void reply.redirect(failurePage(started.failure, started.next), 302);
    this.transactions.store(reply, started.attempt, started.next);
    reply.header('Cache-Control', 'no-store').redirect(started.url, 302);
  }

  @Get('callback')
  @PublicRoute()
  @ApiOperation({ summary: "Finish single sign-on: the provider's redirect back, which signs in" })
  @ApiResponse({
    status: 302,
    description:
      'signed in (session cookie set) and on to `next`; or to /login?error=sso|sso-unverified|account-disabled, with no session',
  })
  @ApiErrors(404, 429)
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const stored = this.transactions.read(request.cookies?.[OIDC_TRANSACTION_COOKIE]);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const outcome = await this.signIn.finish(query, stored, clientKeyOf(request));
    // Whatever happened, the attempt is spent.
    this.transactions.clear(reply);
    reply.header('Cache-Control', 'no-store');
    if ('failure' in outcome) return void reply.redirect(failurePage(outcome.failure, outcome.next), 302);
    let session: Awaited<ReturnType<SessionsService['create']>>;
    try {
      session = await this.sessions.create(outcome.user.id, sessionOriginOf(request, 'oidc'));
    } catch (error) {
      // A disabled account: the browser is on its way back from the provider, so it gets the sign-in page and why.
      if (error instanceof AppError && error.code === ErrorCode.FORBIDDEN) {
        return void reply.redirect(failurePage('account-disabled', outcome.next), 302);
      }
      throw error;
    }
    setSessionCookie(reply, this.runtime, session);
    reply.redirect(outcome.next, 302);
  }
}

/** The console's sign-in page with its translated explanation, keeping the way back. */
function failurePage(failure: OidcFailure, next: string): string {
  return `/login?error=${failure}&redirect=${encodeURIComponent(next)}`;
}
