import { Body, Controller, Get, HttpCode, Inject, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { clientKeyOf } from '../common/client-address.js';
import { PublicRoute } from '../openapi/public-route.decorator.js';
import { AccountsService } from './accounts/accounts.service.js';
import { RegisterResponseDto } from './email/email.dto.js';
import { CurrentAuth, type AuthContext, type AuthenticatedRequest } from './auth-context.js';
import { OkDto, RegisterDto, SessionResponseDto, UpdateAccountDto } from './dto/auth.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { PasswordSignInService } from './passwords/password-sign-in.service.js';
import { RegistrationService } from './registration.service.js';
import { SessionAuthGuard, assertSameOrigin } from './session-auth.guard.js';
import { sessionOriginOf, setSessionCookie } from './sessions/session-cookie.js';
import { SESSION_COOKIE, SessionsService } from './sessions/sessions.service.js';

@ApiTags('console')
@Controller('api')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly passwordSignIn: PasswordSignInService,
    private readonly sessions: SessionsService,
    private readonly registration: RegistrationService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  @Post('auth/register')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Create an account with an e-mail address and a password',
    description:
      'As the registration mode allows (`GET /api/auth/options`, `registrationMode`): `open`; `invite` with `invite` ' +
      '(403 FORBIDDEN without one or with an unknown, revoked, expired or other address’s invitation; 409 CONFLICT ' +
      'when it was used already: of parallel registrations with one invitation exactly one succeeds); `closed` 403.',
  })
  @ApiOkResponse({
    type: RegisterResponseDto,
    description:
      'without e-mail configured: the account, created and signed in. With SMTP_URL: `{ verificationRequired: true }` ' +
      'and no session, the same whether or not the address already has an account (409 is then never answered)',
  })
  @ApiErrors(400, 403, 409, 429)
  async register(
    @Body() body: RegisterDto,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RegisterResponseDto> {
    assertSameOrigin(request, this.runtime);
    const registration = await this.registration.register(body.email, body.password, clientKeyOf(request), body.invite);
    if ('user' in registration) {
      const session = await this.sessions.create(registration.user.id, sessionOriginOf(request, 'password'));
      setSessionCookie(reply, this.runtime, session);
    }
    return registration;
  }

  @Post('auth/login')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Sign in with e-mail and password (and the second factor when the account has one)',
    description:
      'With SMTP_URL set, an account whose address was never proven is refused once its password (and second factor) ' +
      'was right: 403 FORBIDDEN with `emailUnverified: true`, and no session, until the address is proven.',
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 429)
  async login(@Body() body: LoginDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    assertSameOrigin(request, this.runtime);
    const user = await this.passwordSignIn.signIn(body.email, body.password, body.code, clientKeyOf(request));
    setSessionCookie(reply, this.runtime, await this.sessions.create(user.id, sessionOriginOf(request, 'password')));
    return { user };
  }

  @Post('auth/logout')
  @HttpCode(200)
  @UseGuards(SessionAuthGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: 'Sign out: end this session' })
  @ApiOkResponse({ type: OkDto })
  @ApiErrors(401)
  async logout(@CurrentAuth() auth: AuthContext, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.signOut(auth.user.id, auth.sessionId!);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  }

  @Get('auth/session')
  @UseGuards(SessionAuthGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: 'The signed-in account' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(401, 403)
  session(@CurrentAuth() auth: AuthContext) {
    return { user: auth.user };
  }

  @Patch('console/account')
  @UseGuards(SessionAuthGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: "Change the account's owner segment (the first part of its share links)" })
  @ApiOkResponse({ type: SessionResponseDto, description: 'owner segment changed' })
  @ApiErrors(400, 401, 409)
  async updateAccount(@CurrentAuth() auth: AuthContext, @Body() body: UpdateAccountDto) {
    return { user: await this.accounts.changeSegment(auth.user.id, body.segment) };
  }
}
