import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../../auth/auth-context.js';
import { SessionOrBearerGuard } from '../../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../../auth/tokens/token-scope.js';
import { ApiErrors } from '../../common/api-errors.decorator.js';
import { V1_PATHS } from '../../common/v1-paths.js';
import { DoorOperationNames } from '../../openapi/operation-names.js';
import { CreateFolderDto, FolderResponseDto, FolderTreeDto, UpdateFolderDto } from '../dto/console-files.dto.js';
import { FoldersService } from './folders.service.js';

/** The folder tree, one handler per operation for the token API (`/api/v1`, `/v1`) and the console (`/api/console`). */
@ApiTags('folders')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'ApiFolders', console: 'Folders' })
@Controller([...V1_PATHS, 'api/console'])
export class FoldersController {
  constructor(private readonly folders: FoldersService) {}

  @Get('folders')
  @ApiOperation({
    summary: 'The folder tree',
    description: 'Live (not trashed) folders of the caller, each with its sub-folders.',
  })
  @ApiOkResponse({ type: FolderTreeDto })
  @ApiErrors(401, 403, 429)
  async tree(@CurrentAuth() auth: AuthContext): Promise<FolderTreeDto> {
    return { folders: await this.folders.tree(auth.user.id) };
  }

  @Post('folders')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a folder, at the top level or inside another',
    description: '409 DUPLICATE when a live folder of the same name is already there.',
  })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateFolderDto): Promise<FolderResponseDto> {
    return { folder: await this.folders.create(auth.user.id, body.name, body.parentId ?? null) };
  }

  @Patch('folders/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Rename and/or move a folder',
    description: '`parentId: null` moves it to the top level. 409 CONFLICT when moved into itself or below itself.',
  })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() body: UpdateFolderDto,
  ): Promise<FolderResponseDto> {
    return { folder: await this.folders.update(auth.user.id, id, body) };
  }

  @Delete('folders/:id')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Move a folder to the trash',
    description: 'With its sub-folders and files; their shares are revoked. Storage is freed only when the trash is purged.',
  })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(401, 403, 404, 429)
  async remove(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<FolderResponseDto> {
    return { folder: await this.folders.trash(auth.user.id, id) };
  }
}
