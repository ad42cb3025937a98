import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { readMultipartUpload } from './upload-reader.js';
import { UploadsService } from './uploads.service.js';
import { ConsoleFilesService } from './console-files.service.js';
import {
  ConsoleFilePageDto,
  ConsoleFileResponseDto,
  ConsoleFilesQueryDto,
  ConsoleUploadFormDto,
  ConsoleUploadResultDto,
  FileContentDto,
  FileVersionListDto,
  VersionResultDto,
  VersionUploadFormDto,
} from './dto/console-files.dto.js';

/**
 * The console's own file operations (its session only): its list, upload, file and content answer
 * other shapes than the token API's on the same paths (token-files.controller.ts), and versions exist
 * only here. Renaming, moving and trashing a file are written once, for both doors (files.controller.ts).
 */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/files')
export class ConsoleFilesController {
  constructor(
    private readonly consoleFiles: ConsoleFilesService,
    private readonly uploads: UploadsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List and search live files, one page at a time' })
  @ApiOkResponse({ type: ConsoleFilePageDto })
  @ApiErrors(400, 401, 403, 404)
  list(@CurrentAuth() auth: AuthContext, @Query() query: ConsoleFilesQueryDto) {
    return this.consoleFiles.page(auth.user.id, query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Upload a document, choosing what happens when the name is taken' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ConsoleUploadFormDto })
  @ApiOkResponse({ type: ConsoleUploadResultDto })
  @ApiErrors(400, 401, 403, 404, 409, 413)
  async upload(@CurrentAuth() auth: AuthContext, @Req() request: FastifyRequest): Promise<ConsoleUploadResultDto> {
    return this.uploads.uploadFromConsole(auth.user, await readMultipartUpload(request, ['folderId', 'conflict']), auth.actor.id);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One file with its folder, current version and scan state' })
  @ApiOkResponse({ type: ConsoleFileResponseDto })
  @ApiErrors(401, 403, 404)
  async get(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { file: await this.consoleFiles.get(auth.user.id, id) };
  }

  @Get(':id/content')
  @ApiOperation({
    summary: 'The stored text of the current version, or of `versionId`',
    description: '409 INFECTED for quarantined content.',
  })
  @ApiQuery({ name: 'versionId', required: false })
  @ApiOkResponse({ type: FileContentDto })
  @ApiErrors(401, 403, 404, 409)
  content(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Query('versionId') versionId?: string) {
    return this.consoleFiles.content(auth.user.id, id, versionId);
  }

  @Get(':id/versions')
  @ApiOperation({ summary: "A file's versions, newest first" })
  @ApiOkResponse({ type: FileVersionListDto })
  @ApiErrors(401, 403, 404)
  async versions(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { versions: await this.consoleFiles.versions(auth.user.id, id) };
  }

  @Post(':id/versions')
  @HttpCode(200)
  @ApiOperation({ summary: 'Upload a new version; it becomes current and is scanned' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: VersionUploadFormDto })
  @ApiOkResponse({ type: VersionResultDto })
  @ApiErrors(400, 401, 403, 404, 409, 413)
  async addVersion(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<VersionResultDto> {
    return this.uploads.uploadVersion(auth.user, id, await readMultipartUpload(request, []));
  }

  @Post(':id/versions/:versionId/restore')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore an old version',
    description:
      'Copies the old version into a new current version (history only grows; shares pinned to a version keep it). ' +
      'The copy is scanned again and counts against the quota. 409 INFECTED for a quarantined version.',
  })
  @ApiOkResponse({ type: VersionResultDto })
  @ApiErrors(401, 403, 404, 409, 413)
  restoreVersion(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Param('versionId') versionId: string,
  ): Promise<VersionResultDto> {
    return this.consoleFiles.restoreVersion(auth.user, id, versionId);
  }
}
