import { Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res, StreamableFile, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import contentDisposition from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf } from '../common/page-cursor.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { FileDto, FileListDto, UploadFormDto, UploadResponseDto } from './dto/file.dto.js';
import { FileTextService } from './file-text.service.js';
import { FILES_CURSOR } from './files.repository.js';
import { FilesService } from './files.service.js';
import { readMultipartUpload } from './upload-reader.js';
import { UploadsService } from './uploads.service.js';

/**
 * The token API's own representation of files (`/api/v1`, `/v1`). The console's list, upload, file and
 * content answer other shapes on the same paths (console-files.controller.ts): a page with totals and
 * versions, a conflict choice instead of a share on upload, the text as JSON. Renaming, moving and
 * trashing a file are written once, for both doors (files.controller.ts).
 */
@ApiTags('files')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@DoorOperationNames({ token: 'Files', console: 'ConsoleFiles' })
@Controller(V1_PATHS)
export class TokenFilesController {
  constructor(
    private readonly files: FilesService,
    private readonly uploads: UploadsService,
    private readonly texts: FileTextService,
  ) {}

  @Get('files')
  @ApiOperation({
    summary: 'List files',
    description:
      'Live (not trashed) files of the caller, by name: all of them, or those of one folder. ' +
      'Without `limit` and `cursor` the answer holds every file. With either, it holds one page and `nextCursor`; ' +
      'pass that value as `cursor` (with the same `folderId`) for the next page, until it is null. ' +
      'Pages follow the order keys (name, id), not offsets: files added or trashed between two pages ' +
      'shift no other file into a page twice or out of all pages.',
  })
  @ApiQuery({ name: 'folderId', required: false, description: 'only the files of this folder' })
  @ApiPageQueries()
  @ApiOkResponse({ type: FileListDto })
  @ApiErrors(400, 401, 404, 429)
  async list(
    @CurrentAuth() auth: AuthContext,
    @Query('folderId') folderId?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<FileListDto> {
    const page = pageRequestOf(FILES_CURSOR, { limit, cursor });
    if (page) return this.files.listPage(auth.user.id, folderId || undefined, page);
    return { files: await this.files.list(auth.user.id, folderId || undefined) };
  }

  @Post('files')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a document',
    description:
      'Multipart upload of one UTF-8 text document (.html .htm .md .markdown .txt .text, at most 10 MB). ' +
      'A live file of the same name in the folder gives 409 DUPLICATE (INFECTED when that file is quarantined). ' +
      'The new file is PENDING until the antivirus scan settles.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadFormDto })
  @ApiOkResponse({ type: UploadResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 413, 429)
  async upload(@CurrentAuth() auth: AuthContext, @Req() request: FastifyRequest): Promise<UploadResponseDto> {
    return this.uploads.upload(auth.user, await readMultipartUpload(request, ['folderId', 'share']), auth.actor.id);
  }

  @Get('files/:id')
  @ApiOperation({ summary: 'Get a file', description: 'The File object itself (not wrapped).' })
  @ApiOkResponse({ type: FileDto })
  @ApiErrors(401, 404, 429)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.files.get(auth.user.id, id);
  }

  @Get('files/:id/content')
  @Header('Cache-Control', 'no-store')
  // An author's HTML must never run on this origin, even if a browser were made to open the answer.
  @Header('Content-Security-Policy', "sandbox; default-src 'none'")
  @ApiOperation({
    summary: 'The document text a share of the file would serve',
    description:
      'The newest version found clean (a share pinned to a version serves that one instead), as stored, with its media type ' +
      '(`text/markdown`, `text/html` or `text/plain`, UTF-8) and `Content-Disposition: attachment`. ' +
      'The version is named in `X-Version-Id` and `X-Version-No`. ' +
      '409 INFECTED when the file is quarantined; 409 CONFLICT while no version has been found clean yet (being scanned, or the scan failed and is retried).',
  })
  @ApiProduces('text/markdown', 'text/html', 'text/plain')
  @ApiOkResponse({
    description: 'the document text, UTF-8',
    content: {
      'text/markdown': { schema: { type: 'string' } },
      'text/html': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
    },
  })
  @ApiErrors(401, 404, 409, 429)
  async content(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const found = await this.texts.servedText(auth.user.id, id);
    reply.header('X-Version-Id', found.versionId).header('X-Version-No', String(found.versionNo));
    return new StreamableFile(Buffer.from(found.text, 'utf8'), {
      type: found.mediaType,
      disposition: contentDisposition(found.name),
    });
  }
}
