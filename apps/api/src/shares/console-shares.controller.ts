import { Controller, Get, Param, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { SharePagesService } from './share-pages.service.js';
import { ConsoleShareListDto, ConsoleSharesQueryDto, SHARE_STATUSES, ShareTotalsDto } from './share.dto.js';
import { ShareVisitsDto, ShareVisitsQueryDto } from './analytics/share-visits.dto.js';
import { ShareVisitsService } from './analytics/share-visits.service.js';
import { ShareVisitPageDto, VisitLogQueryDto } from './analytics/share-visit-log.dto.js';
import { ShareVisitLogService } from './analytics/share-visit-log.service.js';

/**
 * The console's own share routes (its session only): its list (with the filters and total of its list
 * view, SharePagesService.list), the totals above it, the hourly visit counts and the visit log at
 * `visit-log`. Every other share operation is written once for both doors (shares.controller.ts).
 */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/shares')
export class ConsoleSharesController {
  constructor(
    private readonly pages: SharePagesService,
    private readonly visits: ShareVisitsService,
    private readonly visitLog: ShareVisitLogService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List shares (console)',
    description:
      'Newest first; optionally only those of one file, the collections of one folder, of one status, or whose file ' +
      '(or folder) name or token contains `q`. ' +
      'Without `limit` and `cursor` the answer holds every share (the filters still apply). With either, it holds ' +
      'one page, `nextCursor` and `total` (the count over all pages); send the same filters with the cursor.',
  })
  @ApiQuery({ name: 'fileId', required: false, type: String })
  @ApiQuery({ name: 'folderId', required: false, type: String, description: 'only the collections of this folder' })
  @ApiQuery({
    name: 'status',
    required: false,
    enum: SHARE_STATUSES,
    description: 'revoked wins over consumed, which wins over expired',
  })
  @ApiQuery({ name: 'q', required: false, type: String, description: 'case-insensitive part of the file name or of the token' })
  @ApiPageQueries()
  @ApiOkResponse({ type: ConsoleShareListDto })
  @ApiErrors(400, 401, 403)
  list(@CurrentAuth() auth: AuthContext, @Query() query: ConsoleSharesQueryDto): Promise<ConsoleShareListDto> {
    return this.pages.list(auth.user.id, query, true);
  }

  @Get('totals')
  @ApiOperation({ summary: 'Active links and visits over every share (console)' })
  @ApiOkResponse({ type: ShareTotalsDto })
  @ApiErrors(401, 403)
  totals(@CurrentAuth() auth: AuthContext): Promise<ShareTotalsDto> {
    return this.pages.totals(auth.user.id);
  }

  @Get(':id/visits')
  @ApiOperation({
    summary: 'Visits per hour',
    description: 'Successful renders per hour for the last `hours` hours (default 168).',
  })
  @ApiOkResponse({ type: ShareVisitsDto })
  @ApiErrors(400, 401, 403, 404)
  visitsOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ShareVisitsQueryDto,
  ): Promise<ShareVisitsDto> {
    return this.visits.hourly(auth.user.id, id, query.hours);
  }

  @Get(':id/visit-log')
  @ApiOperation({ summary: 'The visit log (console)', description: 'Same answer as GET /api/v1/shares/{id}/visits.' })
  @ApiOkResponse({ type: ShareVisitPageDto })
  @ApiErrors(400, 401, 403, 404)
  visitLogOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<ShareVisitPageDto> {
    return this.visitLog.page(auth.user.id, id, query);
  }

  @Get(':id/visit-log.csv')
  @ApiOperation({ summary: 'The visit log as CSV (console)', description: 'Same answer as GET /api/v1/shares/{id}/visits.csv.' })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8, one visit per line', schema: { type: 'string' } })
  @ApiErrors(400, 401, 403, 404)
  visitLogCsv(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<StreamableFile> {
    return this.visitLog.csvFile(auth.user.id, id, query);
  }
}
