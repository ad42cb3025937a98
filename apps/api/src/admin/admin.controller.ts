import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  ApiCreatedResponse,
} from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { AdminAuditService } from './admin-audit.service.js';
import { AdminGuard } from './admin.guard.js';
import {
  AdminAuditExportQueryDto,
  AdminAuditPageDto,
  AdminAuditQueryDto,
  AdminStatsDto,
  ADMIN_ONLY,
  AdminUserDto,
  AdminUsersPageDto,
  AdminUsersQueryDto,
  CreateInviteDto,
  CreatedInviteDto,
  InvitesDto,
  RegistrationSettingsDto,
  UpdateAdminUserDto,
  UpdateRegistrationSettingsDto,
} from './admin.dto.js';
import { AdminUsersService } from './admin-users.service.js';
import { InstanceAdminService } from './instance-admin.service.js';

/** The Admin area's accounts. */
@ApiTags('admin')
@ApiCookieAuth()
@UseGuards(AdminGuard)
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  @ApiOperation({
    summary: 'List accounts, newest first, paged',
    description: `${ADMIN_ONLY} One page (default 50) and \`nextCursor\`; \`q\` matches part of the e-mail address or the owner segment.`,
  })
  @ApiQuery({ name: 'q', required: false, type: String })
  @ApiPageQueries()
  @ApiOkResponse({ type: AdminUsersPageDto })
  @ApiErrors(400, 401, 403)
  list(@Query() query: AdminUsersQueryDto): Promise<AdminUsersPageDto> {
    return this.users.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One account', description: ADMIN_ONLY })
  @ApiOkResponse({ type: AdminUserDto })
  @ApiErrors(401, 403, 404)
  get(@Param('id') id: string): Promise<AdminUserDto> {
    return this.users.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change an account's quota, disable or enable it",
    description:
      `${ADMIN_ONLY} Disabling ends the account's sessions at once; its API tokens answer 401 and its share links 410 on every ` +
      'replica, and it cannot sign in (403 FORBIDDEN), until it is enabled again (its sessions stay ended). An administrator ' +
      'cannot disable their own account, nor the last active administrator (409 CONFLICT). A quota below the usage is allowed: ' +
      'nothing is deleted, uploads are refused (413 OVER_QUOTA) until enough is freed. Every change is in the audit trail.',
  })
  @ApiOkResponse({ type: AdminUserDto })
  @ApiErrors(400, 401, 403, 404, 409)
  update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateAdminUserDto): Promise<AdminUserDto> {
    return this.users.update(auth.user.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an account with all its data',
    description:
      `${ADMIN_ONLY} Files and every version, folders, shares and their visits, tokens, webhooks and deliveries, sessions and ` +
      'the account’s audit trail go in one transaction; the deletion is recorded on the acting administrator’s trail. ' +
      'Not one’s own account nor the last active administrator (409 CONFLICT).',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors(401, 403, 404, 409)
  async delete(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.users.delete(auth.user.id, id);
  }
}

/** The Admin area's instance-wide pages: registration, invitations, totals, the audit trail. */
@ApiTags('admin')
@ApiCookieAuth()
@UseGuards(AdminGuard)
@Controller('api/admin')
export class AdminInstanceController {
  constructor(
    private readonly instance: InstanceAdminService,
    private readonly audit: AdminAuditService,
  ) {}

  @Get('settings')
  @ApiOperation({ summary: 'The registration mode', description: ADMIN_ONLY })
  @ApiOkResponse({ type: RegistrationSettingsDto })
  @ApiErrors(401, 403)
  settings(): Promise<RegistrationSettingsDto> {
    return this.instance.registrationSettings();
  }

  @Patch('settings')
  @ApiOperation({
    summary: 'Set the registration mode',
    description:
      `${ADMIN_ONLY} Kept in the database and read at every registration, so every replica obeys it from the next request: ` +
      '`open` (anyone), `invite` (only with an invitation link), `closed` (nobody; single sign-on still makes accounts, see README).',
  })
  @ApiOkResponse({ type: RegistrationSettingsDto })
  @ApiErrors(400, 401, 403)
  setSettings(@CurrentAuth() auth: AuthContext, @Body() body: UpdateRegistrationSettingsDto): Promise<RegistrationSettingsDto> {
    return this.instance.setRegistration(auth.user.id, body.registration);
  }

  @Post('invites')
  @ApiOperation({
    summary: 'Make an invitation link',
    description: `${ADMIN_ONLY} The link holds a random token shown only in this answer; it makes one account, before it expires.`,
  })
  @ApiCreatedResponse({ type: CreatedInviteDto })
  @ApiErrors(400, 401, 403)
  createInvite(@CurrentAuth() auth: AuthContext, @Body() body: CreateInviteDto): Promise<CreatedInviteDto> {
    return this.instance.createInvite(auth.user.id, body);
  }

  @Get('invites')
  @ApiOperation({ summary: 'Invitations, newest first (the last 500)', description: ADMIN_ONLY })
  @ApiOkResponse({ type: InvitesDto })
  @ApiErrors(401, 403)
  async invites(): Promise<InvitesDto> {
    return { invites: await this.instance.listInvites() };
  }

  @Delete('invites/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an invitation (its link stops working)', description: ADMIN_ONLY })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiErrors(401, 403, 404)
  async revokeInvite(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.instance.revokeInvite(auth.user.id, id);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Instance totals: accounts, files, bytes, shares, visits today (UTC)', description: ADMIN_ONLY })
  @ApiOkResponse({ type: AdminStatsDto })
  @ApiErrors(401, 403)
  stats(): Promise<AdminStatsDto> {
    return this.instance.totals();
  }

  @Get('audit')
  @ApiOperation({
    summary: 'The audit trail of every account, newest first, paged',
    description: `${ADMIN_ONLY} Administrator actions carry the administrator as \`actorId\`.`,
  })
  @ApiPageQueries()
  @ApiOkResponse({ type: AdminAuditPageDto })
  @ApiErrors(400, 401, 403)
  auditPage(@Query() query: AdminAuditQueryDto): Promise<AdminAuditPageDto> {
    return this.audit.page(query);
  }

  @Get('audit.ndjson')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Export the audit trail as NDJSON',
    description: `${ADMIN_ONLY} One JSON object per line (the fields of \`GET /api/admin/audit\`'s events), newest first, streamed; the same filters.`,
  })
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({
    description: 'one event per line (Content-Disposition: attachment)',
    content: { 'application/x-ndjson': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401, 403)
  auditExport(@Query() query: AdminAuditExportQueryDto): StreamableFile {
    return new StreamableFile(Readable.from(this.audit.lines(query)), {
      type: 'application/x-ndjson; charset=utf-8',
      disposition: 'attachment; filename="sharedown-audit.ndjson"',
    });
  }
}
