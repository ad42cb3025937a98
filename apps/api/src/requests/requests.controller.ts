import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import {
  CreateRequestDto,
  CreatedRequestDto,
  REQUEST_STATES,
  RequestListDto,
  RequestResponseDto,
  RequestUploadListDto,
  RequestUploadResponseDto,
  UpdateRequestDto,
} from './request.dto.js';
import { RequestsService } from './requests.service.js';

/**
 * Document requests, one handler per operation: the token API (`/api/v1`, `/v1`) and the console
 * (`/api/console`, its session) reach the same methods, with the same rules and answers.
 */
@ApiTags('requests')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@Controller([...V1_PATHS, 'api/console'])
export class RequestsController {
  constructor(private readonly requests: RequestsService) {}

  @Post('requests')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a document request',
    description:
      'A link (`url`, `/r/<segment>/<token>`) through which anyone who has it uploads documents into `folderId` (or a new ' +
      'folder named after the title inside a root folder `Requests`). Each upload takes a slot (at most `maxUploads`), is ' +
      'scanned, and waits for the owner’s review (`review: PENDING`): it cannot be shared until accepted.',
  })
  @ApiOkResponse({ type: CreatedRequestDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateRequestDto): Promise<CreatedRequestDto> {
    return this.requests.create(auth.user, body);
  }

  @Get('requests')
  @ApiOperation({ summary: 'List document requests', description: 'Newest first, one page at a time; `state` filters.' })
  @ApiQuery({ name: 'state', required: false, enum: REQUEST_STATES })
  @ApiPageQueries()
  @ApiOkResponse({ type: RequestListDto })
  @ApiErrors(400, 401, 429)
  list(
    @CurrentAuth() auth: AuthContext,
    @Query('state') state?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<RequestListDto> {
    return this.requests.list(auth.user, { state, limit, cursor });
  }

  @Get('requests/:id')
  @ApiOperation({ summary: 'Get a document request' })
  @ApiOkResponse({ type: RequestResponseDto })
  @ApiErrors(401, 404, 429)
  async get(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<RequestResponseDto> {
    return { request: await this.requests.get(auth.user, id) };
  }

  @Patch('requests/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Change a document request',
    description:
      'Only the fields given change. `expiresInDays` counts from now; `password: null` and `emailAllowlist: null` remove them.',
  })
  @ApiOkResponse({ type: RequestResponseDto })
  @ApiErrors(400, 401, 403, 404, 429)
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() body: UpdateRequestDto,
  ): Promise<RequestResponseDto> {
    return { request: await this.requests.update(auth.user, id, body) };
  }

  @Delete('requests/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Close a document request',
    description: 'Its page answers 410 from now on; the uploads it received stay. Closing twice keeps the first `closedAt`.',
  })
  @ApiOkResponse({ type: RequestResponseDto })
  @ApiErrors(401, 403, 404, 429)
  async close(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<RequestResponseDto> {
    return { request: await this.requests.close(auth.user, id) };
  }

  @Get('requests/:id/uploads')
  @ApiOperation({ summary: 'The uploads a document request received', description: 'Newest first, one page at a time.' })
  @ApiPageQueries()
  @ApiOkResponse({ type: RequestUploadListDto })
  @ApiErrors(400, 401, 404, 429)
  uploads(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<RequestUploadListDto> {
    return this.requests.uploads(auth.user.id, id, { limit, cursor });
  }

  @Post('requests/:id/uploads/:uploadId/accept')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an upload',
    description: 'The file becomes shareable like any other (once CLEAN). 409 CONFLICT when it was rejected before.',
  })
  @ApiOkResponse({ type: RequestUploadResponseDto })
  @ApiErrors(401, 403, 404, 409, 429)
  async accept(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Param('uploadId') uploadId: string,
  ): Promise<RequestUploadResponseDto> {
    return { upload: await this.requests.review(auth.user.id, id, uploadId, 'accept') };
  }

  @Post('requests/:id/uploads/:uploadId/reject')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject an upload',
    description: 'Moves the file to the trash. 409 CONFLICT when it was accepted before.',
  })
  @ApiOkResponse({ type: RequestUploadResponseDto })
  @ApiErrors(401, 403, 404, 409, 429)
  async reject(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Param('uploadId') uploadId: string,
  ): Promise<RequestUploadResponseDto> {
    return { upload: await this.requests.review(auth.user.id, id, uploadId, 'reject') };
  }
}
