import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf } from '../common/page-cursor.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { SHARES_CURSOR } from './share-list.repository.js';
import { SharePagesService } from './share-pages.service.js';
import { CreateShareDto, CreatedShareDto, ListSharesQueryDto, ShareDto, ShareEnvelopeDto, ShareListDto } from './share.dto.js';
import { SharesService } from './shares.service.js';
import { ShareVisitPageDto, VisitLogQueryDto } from './share-visit-log.dto.js';
import { ShareVisitLogService } from './share-visit-log.service.js';
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

@ApiTags('shares')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class SharesController {
  constructor(
    private readonly shares: SharesService,
    private readonly pages: SharePagesService,
    private readonly visitLog: ShareVisitLogService,
    private readonly editor: ShareEditorService,
    private readonly analytics: ShareAnalyticsService,
    private readonly acceptances: ShareAcceptancesService,
  ) {}

  @Post('shares')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a share link of a file, or of a folder (a collection), with its policies',
    description:
      'Exactly one of `fileId` and `folderId` (both: 400 VALIDATION, field `folderId`; neither: field `fileId`). ' +
      "A collection (`folderId`) shows the folder's documents whose current version is CLEAN, sub-folders' " +
      'documents grouped under their folder, each at `<link>/d/<fileId>`; every policy applies to the collection ' +
      'as a whole (opening the collection page is the visit). A collection cannot be pinned (`lockedVersionId`: 400). ' +
      'A folder or file of another account, unknown or in the trash: 404.',
  })
  @ApiOkResponse({ type: CreatedShareDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateShareDto): Promise<CreatedShareDto> {
    return this.shares.create(auth.user, body, auth.actor.id);
  }

  @Get('shares')
  @ApiOperation({
    summary: "The account's shares, newest first; optionally those of one file or the collections of one folder",
    description:
      'Without `limit` and `cursor` the answer holds every share. With either, it holds one page and `nextCursor`; ' +
      'pass that value as `cursor` (with the same `fileId` / `folderId`) for the next page, until it is null. ' +
      'Pages follow the order keys (createdAt descending, then id), not offsets: shares created or revoked between ' +
      'two pages shift no other share into a page twice or out of all pages.',
  })
  @ApiQuery({ name: 'fileId', required: false, type: String, description: 'only the shares of this file' })
  @ApiQuery({ name: 'folderId', required: false, type: String, description: 'only the collections of this folder' })
  @ApiPageQueries()
  @ApiOkResponse({ type: ShareListDto })
  @ApiErrors(400, 401, 429)
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListSharesQueryDto): Promise<ShareListDto> {
    const page = pageRequestOf(SHARES_CURSOR, query);
    if (page) return this.pages.page(auth.user.id, { fileId: query.fileId, folderId: query.folderId }, page);
    return { shares: await this.shares.list(auth.user.id, { fileId: query.fileId, folderId: query.folderId }) };
  }

  @Get('shares/:id')
  @ApiOperation({ summary: 'One share' })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(401, 404, 429)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareDto> {
    return this.shares.get(auth.user.id, id);
  }

  @Patch('shares/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: "Change a live share's policies",
    description: SHARE_EDIT_DESCRIPTION,
  })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateShareDto): Promise<ShareDto> {
    return this.editor.update(auth.user.id, id, body);
  }

  @Get('shares/:id/policies')
  @ApiOperation({
    summary: 'Policies of a share the Share object does not show',
    description: 'The e-mail allowlist and the one-session rule, which an edit starts from.',
  })
  @ApiOkResponse({ type: SharePoliciesDto })
  @ApiErrors(401, 404, 429)
  policies(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<SharePoliciesDto> {
    return this.editor.policies(auth.user.id, id);
  }

  @Get('shares/:id/analytics')
  @ApiOperation({
    summary: 'Visit analytics',
    description: SHARE_ANALYTICS_DESCRIPTION,
  })
  @ApiOkResponse({ type: ShareAnalyticsDto })
  @ApiErrors(400, 401, 404, 429)
  analyticsOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: ShareAnalyticsQueryDto,
  ): Promise<ShareAnalyticsDto> {
    return this.analytics.summary(auth.user.id, id, query.days);
  }

  @Delete('shares/:id')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Revoke a share: its link stops working for good' })
  @ApiOkResponse({ type: ShareEnvelopeDto, description: 'the share, revoked (idempotent)' })
  @ApiErrors(401, 403, 404, 429)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareEnvelopeDto> {
    return { share: await this.shares.revoke(auth.user.id, id) };
  }

  @Get('shares/:id/visits')
  @ApiOperation({
    summary: "The share's visit log, newest first",
    description: 'One row per admitted visit, with engagement once the viewer page reported it. Pages follow nextCursor.',
  })
  @ApiOkResponse({ type: ShareVisitPageDto })
  @ApiErrors(400, 401, 404, 429)
  visits(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<ShareVisitPageDto> {
    return this.visitLog.page(auth.user.id, id, query);
  }

  @Get('shares/:id/visits.csv')
  @ApiOperation({
    summary: "The share's visit log as CSV",
    description: 'The same rows and filters as the visit log (limit and cursor aside), with a header line; at most 100000 rows.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8, one visit per line', schema: { type: 'string' } })
  @ApiErrors(400, 401, 404, 429)
  async visitsCsv(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<StreamableFile> {
    const csv = await this.visitLog.csv(auth.user.id, id, query);
    return new StreamableFile(csv, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="visits-${id}.csv"` });
  }

  @Get('shares/:id/acceptances')
  @ApiOperation({ summary: "Acceptances of the share's agreement, newest first", description: SHARE_ACCEPTANCES_DESCRIPTION })
  @ApiOkResponse({ type: ShareAcceptancePageDto })
  @ApiErrors(400, 401, 404, 429)
  acceptancesOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: AcceptanceQueryDto,
  ): Promise<ShareAcceptancePageDto> {
    return this.acceptances.page(auth.user.id, id, query);
  }

  @Get('shares/:id/acceptances.csv')
  @ApiOperation({ summary: "Acceptances of the share's agreement as CSV", description: SHARE_ACCEPTANCES_CSV_DESCRIPTION })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8, one acceptance per line', schema: { type: 'string' } })
  @ApiErrors(401, 404, 429)
  async acceptancesCsv(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<StreamableFile> {
    const csv = await this.acceptances.csv(auth.user.id, id);
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="acceptances-${id}.csv"`,
    });
  }
}
