import { Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../../auth/auth-context.js';
import { SessionOrBearerGuard } from '../../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../../auth/tokens/token-scope.js';
import { ApiErrors } from '../../common/api-errors.decorator.js';
import { V1_PATHS } from '../../common/v1-paths.js';
import { DoorOperationNames } from '../../openapi/operation-names.js';
import { ConsoleFilesService } from '../console-files.service.js';
import { PurgeResultDto, RestoredFileDto, RestoredFolderDto, TrashListDto } from '../dto/console-files.dto.js';
import { TrashService } from './trash.service.js';

/** The trash, one handler per operation for the token API (`/api/v1`, `/v1`) and the console (`/api/console`). */
@ApiTags('trash')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'ApiTrash', console: 'Trash' })
@Controller([...V1_PATHS, 'api/console'])
export class TrashController {
  constructor(
    private readonly trash: TrashService,
    private readonly consoleFiles: ConsoleFilesService,
  ) {}

  @Get('trash')
  @ApiOperation({ summary: 'What is in the trash', description: 'Trashed items keep counting against the quota until purged.' })
  @ApiOkResponse({ type: TrashListDto })
  @ApiErrors(401, 403, 429)
  list(@CurrentAuth() auth: AuthContext): Promise<TrashListDto> {
    return this.trash.list(auth.user.id);
  }

  @Post('trash/files/:id/restore')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore a file',
    description:
      'Back into its folder (the top level if that folder is gone), renamed `name (1).ext` … if the name is taken. Shares stay revoked.',
  })
  @ApiOkResponse({ type: RestoredFileDto })
  @ApiErrors(401, 403, 404, 429)
  async restoreFile(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<RestoredFileDto> {
    const { fileId, renamed } = await this.trash.restoreFile(auth.user.id, id);
    return { file: await this.consoleFiles.get(auth.user.id, fileId), renamed };
  }

  @Post('trash/folders/:id/restore')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore a folder with everything trashed together with it' })
  @ApiOkResponse({ type: RestoredFolderDto })
  @ApiErrors(401, 403, 404, 429)
  restoreFolder(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<RestoredFolderDto> {
    return this.trash.restoreFolder(auth.user.id, id);
  }

  @Delete('trash/files/:id')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Delete a trashed file for good and free its storage' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403, 404, 429)
  purgeFile(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<PurgeResultDto> {
    return this.trash.purgeFile(auth.user.id, id);
  }

  @Delete('trash/folders/:id')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Delete a trashed folder, its sub-folders and files for good' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403, 404, 429)
  purgeFolder(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<PurgeResultDto> {
    return this.trash.purgeFolder(auth.user.id, id);
  }

  @Delete('trash')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Empty the trash', description: 'Every trashed file and folder, for good; answers what was freed.' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403, 429)
  purgeAll(@CurrentAuth() auth: AuthContext): Promise<PurgeResultDto> {
    return this.trash.purgeAll(auth.user.id);
  }
}
