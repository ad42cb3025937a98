import { Body, Controller, Get, Param, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { AdminGuard } from './admin.guard.js';
import { ADMIN_ONLY } from './admin.dto.js';
import {
  AdminWorkspaceDto,
  AdminWorkspacesPageDto,
  AdminWorkspacesQueryDto,
  UpdateAdminWorkspaceDto,
} from './admin-workspaces.dto.js';
import { AdminWorkspacesService } from './admin-workspaces.service.js';

/** The Admin area's shared workspaces: who owns them, how many members, what they store, their quota. */
@ApiTags('admin')
@ApiCookieAuth()
@UseGuards(AdminGuard)
@Controller('api/admin/workspaces')
export class AdminWorkspacesController {
  constructor(private readonly workspaces: AdminWorkspacesService) {}

  @Get()
  @ApiOperation({
    summary: 'List shared workspaces, newest first, paged',
    description:
      `${ADMIN_ONLY} Each with its owners, member count, usage and quota; one page (default 50) and \`nextCursor\`; ` +
      '`q` matches part of the name or the segment. Personal workspaces are the accounts themselves (`/api/admin/users`).',
  })
  @ApiQuery({ name: 'q', required: false, type: String, description: 'case-insensitive part of the name or of the segment' })
  @ApiPageQueries()
  @ApiOkResponse({ type: AdminWorkspacesPageDto })
  @ApiErrors(400, 401, 403)
  list(@Query() query: AdminWorkspacesQueryDto): Promise<AdminWorkspacesPageDto> {
    return this.workspaces.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One shared workspace', description: ADMIN_ONLY })
  @ApiOkResponse({ type: AdminWorkspaceDto })
  @ApiErrors(401, 403, 404)
  get(@Param('id') id: string): Promise<AdminWorkspaceDto> {
    return this.workspaces.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a shared workspace's quota",
    description:
      `${ADMIN_ONLY} A new shared workspace starts at DEFAULT_QUOTA_BYTES. A quota below the usage is allowed: nothing is ` +
      'deleted, uploads are refused (413 OVER_QUOTA) until enough is freed. The change is on the workspace’s audit trail.',
  })
  @ApiOkResponse({ type: AdminWorkspaceDto })
  @ApiErrors(400, 401, 403, 404)
  update(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() body: UpdateAdminWorkspaceDto,
  ): Promise<AdminWorkspaceDto> {
    return this.workspaces.setQuota(auth.actor.id, id, body.quotaBytes);
  }
}
