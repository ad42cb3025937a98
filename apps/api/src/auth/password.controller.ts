import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { clientKeyOf } from '../common/client-address.js';
import { CurrentAuth, type AuthContext, type AuthenticatedRequest } from './auth-context.js';
import { SessionResponseDto } from './dto/auth.dto.js';
import { ChangePasswordDto } from './dto/password.dto.js';
import { PasswordChangeService } from './passwords/password-change.service.js';
import { SessionAuthGuard } from './session-auth.guard.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/auth')
export class PasswordController {
  constructor(private readonly passwords: PasswordChangeService) {}

  @Post('password')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Change the password (currentPassword required when the account has one) or set a first one; ends the other sessions',
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrors(400, 401, 403, 409, 429)
  async change(@CurrentAuth() auth: AuthContext, @Body() body: ChangePasswordDto, @Req() request: AuthenticatedRequest) {
    const user = await this.passwords.change(
      auth.user,
      auth.sessionId!,
      body.currentPassword,
      body.newPassword,
      clientKeyOf(request),
    );
    return { user };
  }
}
