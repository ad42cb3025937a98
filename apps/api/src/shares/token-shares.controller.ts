import { Controller, Get, Param, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { SharePagesService } from './share-pages.service.js';
import { ListSharesQueryDto, ShareListDto } from './share.dto.js';
import { ShareVisitPageDto, VisitLogQueryDto } from './analytics/share-visit-log.dto.js';
import { ShareVisitLogService } from './analytics/share-visit-log.service.js';

/**
 * The token API's own share routes (`/api/v1`, `/v1`). Its list is the console's without the
 * status and text filters and the total (SharePagesService.list); its `visits` is the visit log,
 * which the console reads at `visit-log` (its `visits` being the hourly counts). Every other share
 * operation is written once for both doors (shares.controller.ts).
 */
@ApiTags('shares')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@DoorOperationNames({ token: 'Shares', console: 'ConsoleShares' })
@Controller(V1_PATHS)
export class TokenSharesController {
  constructor(
    private readonly pages: SharePagesService,
    private readonly visitLog: ShareVisitLogService,
  ) {}

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
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListSharesQueryDto): Promise<ShareListDto> {
    return this.pages.list(auth.user.id, query, false);
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
  visitsCsv(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: VisitLogQueryDto,
  ): Promise<StreamableFile> {
    return this.visitLog.csvFile(auth.user.id, id, query);
  }
}
