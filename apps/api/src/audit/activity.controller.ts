import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { ActivityService } from './activity.service.js';
import { AuditPageDto, AuditQueryDto } from './audit.dto.js';

/**
 * The workspace's audit trail, one handler for both doors: the token API's `activity`
 * (`sharedown activity`, a read-scoped token is enough) and the console's Activity page, which the
 * contract names `/api/audit`.
 */
@ApiTags('activity')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'ApiActivity', console: 'Activity' })
@Controller()
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get(['api/v1/activity', 'v1/activity', 'api/audit'])
  @ApiOperation({
    summary:
      "The account's own audit trail (sign-ins, tokens, webhooks, shares, deletions, two factors, sessions), newest first, paged",
    description:
      'Pages of `limit` events (default 50, at most 200); pass `nextCursor` as `cursor` for the next, until it is null.',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrors(400, 401, 403, 429)
  list(@CurrentAuth() auth: AuthContext, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.activity.page(auth.user.id, query);
  }
}
