import { Body, Controller, Delete, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { ConsoleFileResponseDto, UpdateFileDto } from './dto/console-files.dto.js';
import { FileResponseDto } from './dto/file.dto.js';
import { ConsoleFilesService } from './console-files.service.js';
import { FilesService } from './files.service.js';

/**
 * What a file's owner does to it alike through the token API (`/api/v1`, `/v1`) and the console
 * (`/api/console`, its session): one handler per operation. Each door's own representation of
 * files is in token-files.controller.ts and console-files.controller.ts.
 */
@ApiTags('files')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'Files', console: 'ConsoleFiles' })
@Controller([...V1_PATHS, 'api/console'])
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly consoleFiles: ConsoleFilesService,
  ) {}

  @Patch('files/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Rename a file and/or move it to another folder',
    description:
      'Same name and extension rules as an upload; a rename cannot change the kind. `folderId: null` moves the file to the root. ' +
      '409 DUPLICATE when a live file of that name is already in the target folder.',
  })
  @ApiOkResponse({ type: ConsoleFileResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() body: UpdateFileDto,
  ): Promise<ConsoleFileResponseDto> {
    return { file: await this.consoleFiles.update(auth.user.id, id, body) };
  }

  @Delete('files/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Move a file to the trash',
    description: 'Revokes every share of the file in the same step. Storage is freed only when the trash is purged.',
  })
  @ApiOkResponse({ type: FileResponseDto, description: '`{ file }`: the trashed file' })
  @ApiErrors(401, 403, 404, 429)
  async remove(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<FileResponseDto> {
    return { file: await this.files.trash(auth.user.id, id) };
  }
}
