import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import {
  CreateInvitationDto,
  CreatedInvitationDto,
  InvitationListDto,
  InvitationResponseDto,
  MemberListDto,
  MemberResponseDto,
  SetRoleDto,
  WorkspaceResponseDto,
} from './workspace.dto.js';
import { WorkspacesService } from './workspaces.service.js';

/**
 * The workspace a call acts in (a token's, or the console tab's `X-Sharedown-Workspace`), its
 * members and invitations: one handler per operation for the token API and the console.
 */
@ApiTags('workspace')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@Controller([...V1_PATHS, 'api/console'])
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get('workspace')
  @ApiOperation({
    summary: 'The workspace this call acts in',
    description:
      'A token acts in the workspace it was made in; a personal workspace is its account’s own, with no other members.',
  })
  @ApiOkResponse({ type: WorkspaceResponseDto })
  @ApiErrors(401, 429)
  async get(@CurrentAuth() auth: AuthContext): Promise<WorkspaceResponseDto> {
    return { workspace: await this.workspaces.current(auth) };
  }

  @Get('workspace/members')
  @ApiOperation({ summary: 'The members of the workspace', description: 'By e-mail address; every role may read them.' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiOkResponse({ type: MemberListDto })
  @ApiErrors(400, 401, 429)
  members(@CurrentAuth() auth: AuthContext, @Query('cursor') cursor?: string): Promise<MemberListDto> {
    return this.workspaces.members(auth, cursor);
  }

  @Patch('workspace/members/:userId')
  @RequiresWriteScope()
  @ApiOperation({
    summary: 'Change a member’s role',
    description:
      'OWNER: any role; ADMIN: not to or from OWNER. The last OWNER cannot be demoted (409 CONFLICT), also when two owners demote each other at once.',
  })
  @ApiOkResponse({ type: MemberResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async setRole(
    @CurrentAuth() auth: AuthContext,
    @Param('userId') userId: string,
    @Body() body: SetRoleDto,
  ): Promise<MemberResponseDto> {
    return { member: await this.workspaces.setRole(auth, userId, body.role) };
  }

  @Delete('workspace/members/:userId')
  @RequiresWriteScope()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a member, or leave (your own id)',
    description:
      'Takes effect at the next request on every replica: the member’s sessions stop acting here and its tokens of this workspace answer 401. What it made stays. The last OWNER cannot leave or be removed (409).',
  })
  @ApiOkResponse({ description: 'removed' })
  @ApiErrors(401, 403, 404, 409, 429)
  async remove(@CurrentAuth() auth: AuthContext, @Param('userId') userId: string): Promise<void> {
    await this.workspaces.remove(auth, userId);
  }

  @Post('workspace/invitations')
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Invite someone by e-mail address',
    description:
      'Single use, good for 7 days, mailed when SMTP is set; the link (`url`) is in the answer too. Accepted by a signed-in account of that address (proven, where this instance can prove addresses). OWNER and ADMIN (who cannot invite owners).',
  })
  @ApiOkResponse({ type: CreatedInvitationDto })
  @ApiErrors(400, 401, 403, 409, 429)
  invite(@CurrentAuth() auth: AuthContext, @Body() body: CreateInvitationDto): Promise<CreatedInvitationDto> {
    return this.workspaces.invite(auth, body);
  }

  @Get('workspace/invitations')
  @ApiOperation({
    summary: 'Pending invitations',
    description: 'Not accepted, revoked or expired; newest first. OWNER and ADMIN.',
  })
  @ApiOkResponse({ type: InvitationListDto })
  @ApiErrors(401, 403, 429)
  invitations(@CurrentAuth() auth: AuthContext): Promise<InvitationListDto> {
    return this.workspaces.invitations(auth);
  }

  @Delete('workspace/invitations/:id')
  @RequiresWriteScope()
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  @ApiOkResponse({ type: InvitationResponseDto })
  @ApiErrors(401, 403, 404, 429)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<InvitationResponseDto> {
    return { invitation: await this.workspaces.revokeInvitation(auth, id) };
  }
}
