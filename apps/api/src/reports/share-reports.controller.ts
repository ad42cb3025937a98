import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { ReportPageQueryDto, ShareReportPageDto } from './reports.dto.js';
import { ShareReportsService } from './share-reports.service.js';

const DESCRIPTION =
  'Reports visitors filed against the share, newest first, with their masked network and state; never who resolved them. ' +
  "Another account's share answers 404. Always one page (default 50) and `nextCursor`.";

/** A share's abuse reports, one handler for the token API (`/api/v1`, `/v1`) and the console (`/api/console`). */
@ApiTags('shares')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'ShareReports', console: 'ConsoleShareReports' })
@Controller([...V1_PATHS, 'api/console'])
export class ShareReportsController {
  constructor(private readonly reports: ShareReportsService) {}

  @Get('shares/:id/reports')
  @ApiOperation({ summary: "Abuse reports on one of the account's shares", description: DESCRIPTION })
  @ApiPageQueries()
  @ApiOkResponse({ type: ShareReportPageDto })
  @ApiErrors(400, 401, 403, 404, 429)
  list(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ReportPageQueryDto,
  ): Promise<ShareReportPageDto> {
    return this.reports.page(auth.user.id, id, query);
  }
}
