import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { CreateShareDto, CreatedShareDto, ShareDto, ShareEnvelopeDto } from './share.dto.js';
import { SharesService } from './shares.service.js';
import { ShareEditorService } from './share-editor.service.js';
import { SharePoliciesDto, UpdateShareDto } from './share-update.dto.js';
import { ShareAnalyticsDto, ShareAnalyticsQueryDto } from './analytics/share-analytics.dto.js';
import { ShareAnalyticsService } from './analytics/share-analytics.service.js';
import { AcceptanceQueryDto, ShareAcceptancePageDto } from './analytics/share-acceptances.dto.js';
import { ShareAcceptancesService } from './analytics/share-acceptances.service.js';

/**
 * Shares, one handler per operation for the token API (`/api/v1`, `/v1`, a bearer token) and the
 * console (`/api/console`, its session). The list and the visit log answer each door in its own
 * contract (token-shares.controller.ts, console-shares.controller.ts).
 */
@ApiTags('shares')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'Shares', console: 'ConsoleShares' })
@Controller([...V1_PATHS, 'api/console'])
export class SharesController {
  constructor(
    private readonly shares: SharesService,
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

  @Get('shares/:id')
  @ApiOperation({ summary: 'One share' })
  @ApiOkResponse({ type: ShareDto })
  @ApiErrors(401, 403, 404, 429)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<ShareDto> {
    return this.shares.get(auth.user.id, id);
  }

  @Patch('shares/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: "Change a live share's policies",
    description:
      'Absent fields stay, null removes (expiry, password, caps, watermark text), validated like creation, and each change is ' +
      "recorded in the share's change history. The link, its counts and its history stay; a total cap at or below the visit " +
      'count consumes the link, a higher one opens it again; the next visit is judged by the new policies. ' +
      'A revoked share cannot be changed (409). Edits of one share take turns on its row lock.',
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
  @ApiErrors(401, 403, 404, 429)
  policies(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<SharePoliciesDto> {
    return this.editor.policies(auth.user.id, id);
  }

  @Get('shares/:id/analytics')
  @ApiOperation({
    summary: 'Visit analytics',
    description:
      'Logged visits per day (human and automated), engagement, top referrers and devices over the last `days` days, ' +
      'and reading by section: for each h1–h3 section of a Markdown or HTML document (of a collection: of every document ' +
      'read), how many visits had it on screen for at least a second and their median seconds.',
  })
  @ApiOkResponse({ type: ShareAnalyticsDto })
  @ApiErrors(400, 401, 403, 404, 429)
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

  @Get('shares/:id/acceptances')
  @ApiOperation({
    summary: "Acceptances of the share's agreement, newest first",
    description:
      "One row per visitor and agreement text: the name typed (agreements with requireName), the signed-in visitor's proven " +
      'e-mail, the time, the masked IP prefix, the User-Agent and the SHA-256 of the text accepted. An acceptance holds for ' +
      'that visitor until the owner changes the text. Pages follow nextCursor; kept as long as visits (VISIT_RETENTION_DAYS).',
  })
  @ApiOkResponse({ type: ShareAcceptancePageDto })
  @ApiErrors(400, 401, 403, 404, 429)
  acceptancesOf(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() query: AcceptanceQueryDto,
  ): Promise<ShareAcceptancePageDto> {
    return this.acceptances.page(auth.user.id, id, query);
  }

  @Get('shares/:id/acceptances.csv')
  @ApiOperation({
    summary: "Acceptances of the share's agreement as CSV",
    description:
      'The same rows as the acceptance list (columns id, at, name, email, ipPrefix, userAgent, agreementSha256), newest first, ' +
      'with a header line; at most 100000 rows.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8, one acceptance per line', schema: { type: 'string' } })
  @ApiErrors(401, 403, 404, 429)
  async acceptancesCsv(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<StreamableFile> {
    const csv = await this.acceptances.csv(auth.user.id, id);
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="acceptances-${id}.csv"`,
    });
  }
}
