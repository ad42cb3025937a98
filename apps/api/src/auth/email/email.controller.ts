import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../common/api-errors.decorator.js';
import { clientKeyOf } from '../../common/client-address.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { PublicRoute } from '../../openapi/public-route.decorator.js';
import { CurrentAuth, type AuthContext, type AuthenticatedRequest } from '../auth-context.js';
import { OkDto, SessionResponseDto } from '../dto/auth.dto.js';
import { SessionAuthGuard, assertSameOrigin } from '../session-auth.guard.js';
import { sessionOriginOf, setSessionCookie } from '../sessions/session-cookie.js';
import { SESSION_COOKIE, SessionsService } from '../sessions/sessions.service.js';
import { EmailConfiguredGuard } from './email-configured.guard.js';
import { EmailAddressDto, EmailCodeDto, PasswordResetConfirmDto } from './email.dto.js';
import { EmailSignInService } from './email-sign-in.service.js';
import { EmailVerificationService } from './email-verification.service.js';
import { PasswordResetService } from './password-reset.service.js';

const WITHOUT_SMTP = 'Answers 404 NOT_FOUND when the instance has no SMTP_URL.';

/** E-mail codes: sign-in, proving an address, resetting a password (only with SMTP_URL). */
@ApiTags('console')
@UseGuards(EmailConfiguredGuard)
@Controller('api/auth')
export class EmailController {
  constructor(
    private readonly signIn: EmailSignInService,
    private readonly verification: EmailVerificationService,
    private readonly reset: PasswordResetService,
    private readonly sessions: SessionsService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  @Post('email-code')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Mail a one-time sign-in code',
    description: `Always 200 whether or not the address has an account (the worker decides what to send). ${WITHOUT_SMTP}`,
  })
  @ApiOkResponse({ type: OkDto })
  @ApiErrors(400, 403, 404, 429)
  async sendSignInCode(@Body() body: EmailAddressDto, @Req() request: AuthenticatedRequest) {
    assertSameOrigin(request, this.runtime);
    await this.signIn.send(body.email, clientKeyOf(request));
    return { ok: true };
  }

  @Post('email-code/verify')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Sign in with a mailed code',
    description: `Sets the session cookie; the first sign-in of an address creates its account without a password. ${WITHOUT_SMTP}`,
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async verifySignInCode(
    @Body() body: EmailCodeDto,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    assertSameOrigin(request, this.runtime);
    const user = await this.signIn.verify(body.email, body.code, body.twoFactorCode, clientKeyOf(request));
    setSessionCookie(reply, this.runtime, await this.sessions.create(user.id, sessionOriginOf(request, 'email-code')));
    return { user };
  }

  @Post('verify-email/send')
  @HttpCode(200)
  @UseGuards(SessionAuthGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: "Mail a code proving the signed-in account's address", description: WITHOUT_SMTP })
  @ApiOkResponse({ type: OkDto })
  @ApiErrors(401, 404, 409, 429)
  async sendVerificationCode(@CurrentAuth() auth: AuthContext, @Req() request: AuthenticatedRequest) {
    await this.verification.sendForAccount(auth.user, clientKeyOf(request));
    return { ok: true };
  }

  @Post('verify-email')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Prove an address with its mailed code',
    description: `Marks the address verified. Signed in to that account: nothing else changes; otherwise the session cookie is set. ${WITHOUT_SMTP}`,
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async verifyEmail(
    @Body() body: EmailCodeDto,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    assertSameOrigin(request, this.runtime);
    const current = await this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
    const verified = await this.verification.verify(
      body.email,
      body.code,
      body.twoFactorCode,
      current?.user ?? null,
      clientKeyOf(request),
    );
    if (verified.signIn) {
      setSessionCookie(reply, this.runtime, await this.sessions.create(verified.user.id, sessionOriginOf(request, 'email-code')));
    }
    return { user: verified.user };
  }

  @Post('password-reset')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Mail a password reset code',
    description: `Always 200 whether or not the address has an account. 403 when PASSWORD_LOGIN=false. ${WITHOUT_SMTP}`,
  })
  @ApiOkResponse({ type: OkDto })
  @ApiErrors(400, 403, 404, 429)
  async requestReset(@Body() body: EmailAddressDto, @Req() request: AuthenticatedRequest) {
    assertSameOrigin(request, this.runtime);
    await this.reset.request(body.email, clientKeyOf(request));
    return { ok: true };
  }

  @Post('password-reset/confirm')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary: 'Set a new password with a mailed code',
    description:
      'Proves the address, ends every session of the account and signs in with a new one. A disabled account: 403 ' +
      `FORBIDDEN, and the code and the password stay as they were. ${WITHOUT_SMTP}`,
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async confirmReset(
    @Body() body: PasswordResetConfirmDto,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    assertSameOrigin(request, this.runtime);
    const user = await this.reset.confirm(body.email, body.code, body.newPassword, body.twoFactorCode, clientKeyOf(request));
    setSessionCookie(reply, this.runtime, await this.sessions.create(user.id, sessionOriginOf(request, 'password-reset')));
    return { user };
  }
}
