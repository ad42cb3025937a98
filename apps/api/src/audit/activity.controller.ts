import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { ActivityService } from './activity.service.js';
import { AuditPageDto, AuditQueryDto } from './audit.dto.js';

const SUMMARY =
  "The account's own audit trail (sign-ins, tokens, webhooks, shares, deletions, two factors, sessions), newest first, paged";
const DESCRIPTION =
  'Pages of `limit` events (default 50, at most 200); pass `nextCursor` as `cursor` for the next, until it is null.';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/audit')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @ApiOperation({ summary: SUMMARY, description: DESCRIPTION })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrors(400, 401, 403)
  list(@CurrentAuth() auth: AuthContext, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.activity.page(auth.user.id, query);
  }
}

/** The same trail for API tokens (`sharedown activity`): a read-scoped token is enough. */
@ApiTags('activity')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class ApiActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get('activity')
  @ApiOperation({ summary: SUMMARY, description: DESCRIPTION })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrors(400, 401, 429)
  list(@CurrentAuth() auth: AuthContext, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.activity.page(auth.user.id, query);
  }
}
