import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import {
  CreateWorkspaceDto,
  InvitationPreviewDto,
  RenameWorkspaceDto,
  WorkspaceListDto,
  WorkspaceResponseDto,
} from './workspace.dto.js';
import { WorkspacesService } from './workspaces.service.js';

/**
 * The signed-in account's workspaces, in the console: the switcher's list, creating, renaming and
 * deleting shared workspaces, and accepting an invitation. The account acts as itself here.
 */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get('workspaces')
  @ApiOperation({
    summary: 'The account’s workspaces',
    description: 'The personal workspace first, then the shared ones by name.',
  })
  @ApiOkResponse({ type: WorkspaceListDto })
  @ApiErrors(401)
  mine(@CurrentAuth() auth: AuthContext): Promise<WorkspaceListDto> {
    return this.workspaces.mine(auth.actor);
  }

  @Post('workspaces')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a shared workspace',
    description:
      'Its creator is its first OWNER; its quota starts at DEFAULT_QUOTA_BYTES. A segment taken by an account or workspace is 409.',
  })
  @ApiOkResponse({ type: WorkspaceResponseDto })
  @ApiErrors(400, 401, 403, 409)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateWorkspaceDto): Promise<WorkspaceResponseDto> {
    return { workspace: await this.workspaces.create(auth.actor, body) };
  }

  @Patch('workspaces/:id')
  @ApiOperation({ summary: 'Rename a shared workspace (OWNER)' })
  @ApiOkResponse({ type: WorkspaceResponseDto })
  @ApiErrors(400, 401, 403, 404)
  async rename(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() body: RenameWorkspaceDto,
  ): Promise<WorkspaceResponseDto> {
    return { workspace: await this.workspaces.rename(auth.actor, id, body.name) };
  }

  @Delete('workspaces/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a shared workspace (OWNER)',
    description: 'Only when it holds no files, live or in the trash: 409 otherwise.',
  })
  @ApiOkResponse({ description: 'deleted' })
  @ApiErrors(401, 403, 404, 409)
  async delete(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.workspaces.delete(auth.actor, id);
  }

  @Get('invitations/:secret')
  @ApiOperation({
    summary: 'What an invitation link offers',
    description: 'Its workspace, role and address; 404 once used, revoked or expired.',
  })
  @ApiOkResponse({ type: InvitationPreviewDto })
  @ApiErrors(401, 404)
  preview(@Param('secret') secret: string): Promise<InvitationPreviewDto> {
    return this.workspaces.preview(secret);
  }

  @Post('invitations/:secret/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation',
    description:
      'As the signed-in account of the invited address (proven where this instance can prove addresses). Single use: a second acceptance is 409.',
  })
  @ApiOkResponse({ type: WorkspaceResponseDto })
  @ApiErrors(401, 403, 404, 409)
  async accept(@CurrentAuth() auth: AuthContext, @Param('secret') secret: string): Promise<WorkspaceResponseDto> {
    return { workspace: await this.workspaces.accept(auth.actor, secret) };
  }
}
