import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf } from '../common/page-cursor.js';
import { SHARES_CURSOR } from './share-list.repository.js';
import { SharePagesService } from './share-pages.service.js';
import {
  ConsoleShareListDto,
  ConsoleSharesQueryDto,
  CreateShareDto,
  CreatedShareDto,
  SHARE_STATUSES,
  ShareDto,
  ShareEnvelopeDto,
  ShareTotalsDto,
} from './share.dto.js';
import { SharesService } from './shares.service.js';
import { ShareVisitsDto, ShareVisitsQueryDto } from './share-visits.dto.js';
import { ShareVisitsService } from './share-visits.service.js';
import { ShareEditorService } from './share-editor.service.js';
import { SharePoliciesDto, UpdateShareDto } from './share-update.dto.js';
import { ShareAnalyticsDto, ShareAnalyticsQueryDto } from './share-analytics.dto.js';
import { ShareAnalyticsService } from './share-analytics.service.js';
import {
  SHARE_ACCEPTANCES_CSV_DESCRIPTION,
  SHARE_ACCEPTANCES_DESCRIPTION,
  SHARE_ANALYTICS_DESCRIPTION,
  SHARE_EDIT_DESCRIPTION,
} from './share-route-docs.js';
import { AcceptanceQueryDto, ShareAcceptancePageDto } from './share-acceptances.dto.js';
import { ShareAcceptancesService } from './share-acceptances.service.js';
import { ShareVisitPageDto, VisitLogQueryDto } from './share-visit-log.dto.js';
import { ShareVisitLogService } from './share-visit-log.service.js';

/** The console's session-authenticated twin of `/api/v1/shares`, plus visit statistics. */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/shares')
export class ConsoleSharesController {
  constructor(
    private readonly shares: SharesService,
    private readonly visits: ShareVisitsService,
    private readonly pages: SharePagesService,
    private readonly editor: ShareEditorService,
    private readonly analytics: ShareAnalyticsService,
    private readonly visitLog: ShareVisitLogService,
    private readonly acceptances: ShareAcceptancesService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a share (console)', description: 'Same rules and answer as POST /api/v1/shares.' })
  @ApiOkResponse({ type: CreatedShareDto })
  @ApiErrors(400, 401, 403, 404, 409)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateShareDto): Promise<CreatedShareDto> {
    return this.shares.create(auth.user, body, auth.actor.id);
  }

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
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ConsoleSharesQueryDto): Promise<ConsoleShareListDto> {
    const filter = { fileId: query.fileId, folderId: query.folderId, status: query.status, q: query.q?.trim() || undefined };
    const page = pageRequestOf(SHARES_CURSOR, query);
    if (page) {
      const [found, total] = await Promise.all([
        this.pages.page(auth.user.id, filter, page),
        this.pages.count(auth.user.id, filter),
      ]);
      return { ...found, total };
    }
    if (filter.status === undefined && filter.q === undefined) {
      return { shares: await this.shares.list(auth.user.id, { fileId: query.fileId, folderId: query.folderId }) };
    }
    return { shares: await this.pages.all(auth.user.id, filter) };
  }

  @Get('totals')
  @ApiOperation({ summary: 'Active links and visits over every share (console)' })
  @ApiOkResponse({ type: ShareTotalsDto })
  @ApiErrors(401, 403)
  totals(@CurrentAuth() auth: AuthContext): Promise<ShareTotalsDto> {
    return this.pages.totals(auth.user.id);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One share (console)' })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(401, 403, 404)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareDto> {
    return this.shares.get(auth.user.id, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a live share's policies (console)",
    description: SHARE_EDIT_DESCRIPTION,
  })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(400, 401, 403, 404, 409)
  update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateShareDto): Promise<ShareDto> {
    return this.editor.update(auth.user.id, id, body);
  }

  @Get(':id/policies')
  @ApiOperation({ summary: 'Policies of a share the Share object does not show (console)' })
  @ApiOkResponse({ type: SharePoliciesDto })
  @ApiErrors(401, 403, 404)
  policies(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<SharePoliciesDto> {
    return this.editor.policies(auth.user.id, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a share (console)' })
  @ApiOkResponse({ type: ShareEnvelopeDto, description: 'the share, revoked (idempotent)' })
  @ApiErrors(401, 403, 404)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareEnvelopeDto> {
    return { share: await this.shares.revoke(auth.user.id, id) };
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

  @Get(':id/analytics')
  @ApiOperation({
    summary: 'Visit analytics (console)',
    description: SHARE_ANALYTICS_DESCRIPTION,
  })
  @ApiOkResponse({ type: ShareAnalyticsDto })
  @ApiErrors(400, 401, 403, 404)
  analyticsOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ShareAnalyticsQueryDto,
  ): Promise<ShareAnalyticsDto> {
    return this.analytics.summary(auth.user.id, id, query.days);
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
  async visitLogCsv(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<StreamableFile> {
    const csv = await this.visitLog.csv(auth.user.id, id, query);
    return new StreamableFile(csv, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="visits-${id}.csv"` });
  }

  @Get(':id/acceptances')
  @ApiOperation({ summary: "Acceptances of the share's agreement (console)", description: SHARE_ACCEPTANCES_DESCRIPTION })
  @ApiOkResponse({ type: ShareAcceptancePageDto })
  @ApiErrors(400, 401, 403, 404)
  acceptancesOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: AcceptanceQueryDto,
  ): Promise<ShareAcceptancePageDto> {
    return this.acceptances.page(auth.user.id, id, query);
  }

  @Get(':id/acceptances.csv')
  @ApiOperation({ summary: 'Acceptances as CSV (console)', description: SHARE_ACCEPTANCES_CSV_DESCRIPTION })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8, one acceptance per line', schema: { type: 'string' } })
  @ApiErrors(401, 403, 404)
  async acceptancesCsv(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<StreamableFile> {
    const csv = await this.acceptances.csv(auth.user.id, id);
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="acceptances-${id}.csv"`,
    });
  }
}
