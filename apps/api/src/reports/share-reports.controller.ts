import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { ReportPageQueryDto, ShareReportPageDto } from './reports.dto.js';
import { ShareReportsService } from './share-reports.service.js';

const DESCRIPTION =
  'Reports visitors filed against the share, newest first, with their masked network and state; never who resolved them. ' +
  "Another account's share answers 404. Always one page (default 50) and `nextCursor`.";

@ApiTags('shares')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class ShareReportsController {
  constructor(private readonly reports: ShareReportsService) {}

  @Get('shares/:id/reports')
  @ApiOperation({ summary: "Abuse reports on one of the account's shares", description: DESCRIPTION })
  @ApiPageQueries()
  @ApiOkResponse({ type: ShareReportPageDto })
  @ApiErrors(400, 401, 404, 429)
  list(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ReportPageQueryDto,
  ): Promise<ShareReportPageDto> {
    return this.reports.page(auth.user.id, id, query);
  }
}

/** The console's twin of `GET /api/v1/shares/{id}/reports`. */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/shares')
export class ConsoleShareReportsController {
  constructor(private readonly reports: ShareReportsService) {}

  @Get(':id/reports')
  @ApiOperation({ summary: 'Abuse reports on a share (console)', description: DESCRIPTION })
  @ApiPageQueries()
  @ApiOkResponse({ type: ShareReportPageDto })
  @ApiErrors(400, 401, 403, 404)
  list(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ReportPageQueryDto,
  ): Promise<ShareReportPageDto> {
    return this.reports.page(auth.user.id, id, query);
  }
}
