import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { CreateFolderDto, FolderResponseDto, FolderTreeDto, UpdateFolderDto } from './dto/console-files.dto.js';
import { FoldersService } from './folders.service.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/folders')
export class FoldersController {
  constructor(private readonly folders: FoldersService) {}

  @Get()
  @ApiOperation({ summary: 'The folder tree (live folders)' })
  @ApiOkResponse({ type: FolderTreeDto })
  @ApiErrors(401, 403)
  async tree(@CurrentAuth() auth: AuthContext) {
    return { folders: await this.folders.tree(auth.user.id) };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a folder, at the top level or inside another' })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateFolderDto) {
    return { folder: await this.folders.create(auth.user.id, body.name, body.parentId ?? null) };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename and/or move a folder', description: '409 CONFLICT when moved into itself or below itself.' })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  async update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateFolderDto) {
    return { folder: await this.folders.update(auth.user.id, id, body) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Move a folder with its sub-folders and files to the trash (their shares are revoked)' })
  @ApiOkResponse({ type: FolderResponseDto })
  @ApiErrors(401, 403, 404)
  async remove(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { folder: await this.folders.trash(auth.user.id, id) };
  }
}
