import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { clientKeyOf } from '../common/client-address.js';
import { CurrentAuth, type AuthContext, type AuthenticatedRequest } from './auth-context.js';
import { SessionResponseDto } from './dto/auth.dto.js';
import { RecoveryCodesDto, TwoFactorCodeDto, TwoFactorSetupDto, TwoFactorStatusDto } from './dto/two-factor.dto.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { TwoFactorService } from './two-factor/two-factor.service.js';
import { UsersRepository } from './accounts/users.repository.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/auth/2fa')
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly users: UsersRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Whether two-factor authentication is on, and how many recovery codes are left' })
  @ApiOkResponse({ type: TwoFactorStatusDto })
  @ApiErrors(401, 403)
  status(@CurrentAuth() auth: AuthContext) {
    return this.twoFactor.status(auth.user.id);
  }

  @Post('setup')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start enrolment: a new TOTP secret, pending until /enable gets a code made from it' })
  @ApiOkResponse({ type: TwoFactorSetupDto })
  @ApiErrors(401, 403, 409)
  setup(@CurrentAuth() auth: AuthContext) {
    return this.twoFactor.setup(auth.user);
  }

  @Post('enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor authentication on with a code from the pending secret; ends the other sessions' })
  @ApiOkResponse({ type: RecoveryCodesDto, description: 'the recovery codes, shown only here' })
  @ApiErrors(400, 401, 403, 409, 429)
  enable(@CurrentAuth() auth: AuthContext, @Body() body: TwoFactorCodeDto, @Req() request: AuthenticatedRequest) {
    return this.twoFactor.enable(auth.user, body.code, auth.sessionId!, clientKeyOf(request));
  }

  @Post('disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor authentication off with a TOTP or recovery code; 401 on a wrong one' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 409, 429)
  async disable(@CurrentAuth() auth: AuthContext, @Body() body: TwoFactorCodeDto, @Req() request: AuthenticatedRequest) {
    await this.twoFactor.disable(auth.user, body.code, clientKeyOf(request));
    return { user: (await this.users.findById(auth.user.id))! };
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @ApiOperation({ summary: 'A fresh set of recovery codes (after a TOTP or recovery code); the previous ones stop working' })
  @ApiOkResponse({ type: RecoveryCodesDto, description: 'the recovery codes, shown only here' })
  @ApiErrors(400, 401, 403, 409, 429)
  renewRecoveryCodes(@CurrentAuth() auth: AuthContext, @Body() body: TwoFactorCodeDto, @Req() request: AuthenticatedRequest) {
    return this.twoFactor.renewRecoveryCodes(auth.user, body.code, clientKeyOf(request));
  }
}
