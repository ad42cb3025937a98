import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/bearer-auth.guard.js';
import { RequiresWriteScope } from '../auth/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf } from '../common/page-cursor.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { SHARES_CURSOR } from './share-list.repository.js';
import { SharePagesService } from './share-pages.service.js';
import { CreateShareDto, CreatedShareDto, ListSharesQueryDto, ShareDto, ShareEnvelopeDto, ShareListDto } from './share.dto.js';
import { SharesService } from './shares.service.js';

@ApiTags('shares')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class SharesController {
  constructor(
    private readonly shares: SharesService,
    private readonly pages: SharePagesService,
  ) {}

  @Post('shares')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a share link of a file, with its policies' })
  @ApiOkResponse({ type: CreatedShareDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateShareDto): Promise<CreatedShareDto> {
    return this.shares.create(auth.user, body);
  }

  @Get('shares')
  @ApiOperation({
    summary: "The account's shares, newest first; optionally those of one file",
    description:
      'Without `limit` and `cursor` the answer holds every share. With either, it holds one page and `nextCursor`; ' +
      'pass that value as `cursor` (with the same `fileId`) for the next page, until it is null. ' +
      'Pages follow the order keys (createdAt descending, then id), not offsets: shares created or revoked between ' +
      'two pages shift no other share into a page twice or out of all pages.',
  })
  @ApiQuery({ name: 'fileId', required: false, type: String })
  @ApiPageQueries()
  @ApiOkResponse({ type: ShareListDto })
  @ApiErrors(400, 401, 429)
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListSharesQueryDto): Promise<ShareListDto> {
    const page = pageRequestOf(SHARES_CURSOR, query);
    if (page) return this.pages.page(auth.user.id, { fileId: query.fileId }, page);
    return { shares: await this.shares.list(auth.user.id, query.fileId) };
  }

  @Get('shares/:id')
  @ApiOperation({ summary: 'One share' })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(401, 404, 429)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareDto> {
    return this.shares.get(auth.user.id, id);
  }

  @Delete('shares/:id')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Revoke a share: its link stops working for good' })
  @ApiOkResponse({ type: ShareEnvelopeDto, description: 'the share, revoked (idempotent)' })
  @ApiErrors(401, 403, 404, 429)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareEnvelopeDto> {
    return { share: await this.shares.revoke(auth.user.id, id) };
  }
}
