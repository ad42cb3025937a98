import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { CurrentAuth, type AuthContext } from './auth-context.js';
import { BearerAuthGuard } from './tokens/bearer-auth.guard.js';
import { MeDto } from './dto/auth.dto.js';

@ApiTags('account')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class MeController {
  @Get('me')
  @ApiOperation({ summary: 'The account and the token of this call' })
  @ApiOkResponse({ type: MeDto })
  @ApiErrors(401, 429)
  me(@CurrentAuth() auth: AuthContext): MeDto {
    // The account the token acts as, with the storage figures of the workspace it acts in.
    const { id, email } = auth.actor;
    const { quotaBytes, usedBytes } = auth.user;
    return { user: { id, email, quotaBytes, usedBytes }, auth: { source: 'token', tokenId: auth.tokenId! } };
  }
}
