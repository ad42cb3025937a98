import { Controller, Get, Header, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { ExportService } from './export.service.js';

const DESCRIPTION =
  "A zip of the caller's own documents: `documents/` (each live file's current version under its folder path), " +
  '`trash/` (trashed files not yet purged), `versions/` (every version as v<N>), `manifest.json` (folders, files, ' +
  'versions with size, SHA-256 and scan status) and `shares.json` (the share list as the API gives it, no passwords). ' +
  'Versions not found clean are listed but not included. At most 6 exports per account an hour (429 RATE_LIMITED with Retry-After).';

const ZIP_RESPONSE = {
  description: 'the zip (Content-Disposition: attachment)',
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
} as const;

function download(file: { fileName: string; stream: NodeJS.ReadableStream }): StreamableFile {
  return new StreamableFile(file.stream as never, {
    type: 'application/zip',
    disposition: `attachment; filename="${file.fileName}"`,
  });
}

/** The account's own export for the API and the CLI (`sharedown export`): a read-scoped token is enough. */
@ApiTags('files')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  @Get('export')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Download all my documents and shares as a zip', description: DESCRIPTION })
  @ApiProduces('application/zip')
  @ApiOkResponse(ZIP_RESPONSE)
  @ApiErrors(401, 429)
  async export(@CurrentAuth() auth: AuthContext): Promise<StreamableFile> {
    return download(await this.exports.export(auth.user));
  }
}

/** The same export for the console's Account page, on the session. */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console')
export class ConsoleExportController {
  constructor(private readonly exports: ExportService) {}

  @Get('export')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Download all my documents and shares as a zip (console)', description: DESCRIPTION })
  @ApiProduces('application/zip')
  @ApiOkResponse(ZIP_RESPONSE)
  @ApiErrors(401, 403, 429)
  async export(@CurrentAuth() auth: AuthContext): Promise<StreamableFile> {
    return download(await this.exports.export(auth.user));
  }
}
