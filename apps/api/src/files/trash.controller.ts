import { Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ConsoleFilesService } from './console-files.service.js';
import { PurgeResultDto, RestoredFileDto, RestoredFolderDto, TrashListDto } from './dto/console-files.dto.js';
import { TrashService } from './trash.service.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/trash')
export class TrashController {
  constructor(
    private readonly trash: TrashService,
    private readonly consoleFiles: ConsoleFilesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'What is in the trash', description: 'Trashed items keep counting against the quota until purged.' })
  @ApiOkResponse({ type: TrashListDto })
  @ApiErrors(401, 403)
  list(@CurrentAuth() auth: AuthContext) {
    return this.trash.list(auth.user.id);
  }

  @Post('files/:id/restore')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore a file',
    description:
      'Back into its folder (the top level if that folder is gone), renamed `name (1).ext` … if the name is taken. Shares stay revoked.',
  })
  @ApiOkResponse({ type: RestoredFileDto })
  @ApiErrors(401, 403, 404)
  async restoreFile(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<RestoredFileDto> {
    const { fileId, renamed } = await this.trash.restoreFile(auth.user.id, id);
    return { file: await this.consoleFiles.get(auth.user.id, fileId), renamed };
  }

  @Post('folders/:id/restore')
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore a folder with everything trashed together with it' })
  @ApiOkResponse({ type: RestoredFolderDto })
  @ApiErrors(401, 403, 404)
  restoreFolder(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.trash.restoreFolder(auth.user.id, id);
  }

  @Delete('files/:id')
  @ApiOperation({ summary: 'Delete a trashed file for good and free its storage' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403, 404)
  purgeFile(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.trash.purgeFile(auth.user.id, id);
  }

  @Delete('folders/:id')
  @ApiOperation({ summary: 'Delete a trashed folder, its sub-folders and files for good' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403, 404)
  purgeFolder(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.trash.purgeFolder(auth.user.id, id);
  }

  @Delete()
  @ApiOperation({ summary: 'Empty the trash' })
  @ApiOkResponse({ type: PurgeResultDto })
  @ApiErrors(401, 403)
  purgeAll(@CurrentAuth() auth: AuthContext) {
    return this.trash.purgeAll(auth.user.id);
  }
}
