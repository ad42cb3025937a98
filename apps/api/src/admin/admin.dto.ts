import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LIMITS } from '@sharedown/contract/limits';
import { AUDIT_ACTIONS, type AuditAction } from '../audit/audit-action.js';
import { REGISTRATION_MODES, type RegistrationMode } from '../auth/accounts/instance-settings.repository.js';
import { CURSOR_MESSAGE, LIMIT_MESSAGE } from '../common/page-cursor.js';
import { NoControlCharacters } from '../common/text/text-rules.js';

/** The largest quota an administrator may give: 1 TiB, far above any text collection. */
export const MAX_QUOTA_BYTES = 1024 ** 4;
/** Said of every route of the Admin area. */
export const ADMIN_ONLY =
  'Administrators only, with the console session: a bearer token gets 403 FORBIDDEN, like every console route; an account that is no administrator 403.';

export const INVITE_DAYS = { min: 1, max: 90, default: 7 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AdminUsersQueryDto {
  @ApiProperty({
    required: false,
    maxLength: 200,
    description: 'case-insensitive part of the e-mail address or of the owner segment',
  })
  @IsOptional()
  @IsString({ message: 'q 必须是字符串' })
  @MaxLength(200, { message: 'q 最长 200 个字符' })
  @NoControlCharacters('q')
  q?: string;

  // Checked, with cursor, by pageRequestOf (documented by ApiPageQueries on the route).
  @IsOptional()
  @IsString({ message: LIMIT_MESSAGE })
  limit?: string;

  @IsOptional()
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

export class AdminUserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ description: 'public owner segment used in share URLs' }) segment: string;
  @ApiProperty({
    description:
      'an administrator: the first account of the instance, or an address ADMIN_EMAILS names once it is proven (with ' +
      'SMTP_URL set, the first account too waits for its address to be proven)',
  })
  isAdmin: boolean;
  @ApiProperty({ description: 'disabled by an administrator: no sign-in, tokens answer 401, share links answer 410' })
  disabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabledAt: string | null;
  @ApiProperty({ type: 'integer' }) quotaBytes: number;
  @ApiProperty({ type: 'integer', description: 'may exceed quotaBytes after a quota was lowered below it' }) usedBytes: number;
  @ApiProperty({ type: 'integer', description: 'files not in the trash' }) fileCount: number;
  @ApiProperty({ type: 'integer', description: 'every share, revoked or not' }) shareCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSignInAt: string | null;
}

export class AdminUsersPageDto {
  @ApiProperty({ type: [AdminUserDto], description: 'newest accounts first' }) users: AdminUserDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'pass as `cursor` (with the same `q`) for the next page; null on the last page',
  })
  nextCursor: string | null;
}

export class UpdateAdminUserDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 0,
    maximum: MAX_QUOTA_BYTES,
    description:
      'the storage quota in bytes. It may be set below what the account uses: nothing is deleted, and uploads and new versions are refused (413 OVER_QUOTA) until enough is freed',
  })
  @IsOptional()
  @IsInt({ message: 'quotaBytes 必须是整数' })
  @Min(0, { message: `quotaBytes 必须在 0 到 ${MAX_QUOTA_BYTES} 之间` })
  @Max(MAX_QUOTA_BYTES, { message: `quotaBytes 必须在 0 到 ${MAX_QUOTA_BYTES} 之间` })
  quotaBytes?: number;

  @ApiProperty({ required: false, description: 'true disables the account (its sessions end at once); false enables it again' })
  @IsOptional()
  @IsBoolean({ message: 'disabled 必须是布尔值' })
  disabled?: boolean;
}

export class RegistrationSettingsDto {
  @ApiProperty({ enum: REGISTRATION_MODES, description: 'open: anyone; invite: only with an invitation link; closed: nobody' })
  registration: RegistrationMode;
  @ApiProperty({
    description: 'false while no administrator chose a mode: ALLOW_REGISTRATION decides (true = open, false = closed)',
  })
  chosen: boolean;
}

export class UpdateRegistrationSettingsDto {
  @ApiProperty({ enum: REGISTRATION_MODES })
  @IsIn(REGISTRATION_MODES, { message: `registration 必须是 ${REGISTRATION_MODES.join('、')} 之一` })
  registration: RegistrationMode;
}

export class CreateInviteDto {
  @ApiProperty({
    required: false,
    format: 'email',
    maxLength: LIMITS.email.max,
    description: 'only this address may register with it',
  })
  @IsOptional()
  @IsEmail({}, { message: 'email 必须是有效的电子邮件地址' })
  @MaxLength(LIMITS.email.max, { message: `email 最长 ${LIMITS.email.max} 个字符` })
  email?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: INVITE_DAYS.min,
    maximum: INVITE_DAYS.max,
    default: INVITE_DAYS.default,
  })
  @IsOptional()
  @IsInt({ message: 'expiresInDays 必须是整数' })
  @Min(INVITE_DAYS.min, { message: `expiresInDays 必须在 ${INVITE_DAYS.min} 到 ${INVITE_DAYS.max} 之间` })
  @Max(INVITE_DAYS.max, { message: `expiresInDays 必须在 ${INVITE_DAYS.min} 到 ${INVITE_DAYS.max} 之间` })
  expiresInDays?: number;
}

export class CreatedInviteDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    format: 'uri',
    description:
      'the invitation link (the console’s sign-up page with `?invite=`); shown only in this answer, only its digest is kept',
  })
  url: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: String, format: 'email', nullable: true }) email: string | null;
}

export class InviteDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'email', nullable: true, description: 'the only address that may use it; null: anyone' })
  email: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) usedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the account it made (null once deleted)' })
  usedBy: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the administrator who made it' })
  createdBy: string | null;
  @ApiProperty({ enum: ['pending', 'used', 'expired'] }) status: 'pending' | 'used' | 'expired';
}

export class InvitesDto {
  @ApiProperty({ type: [InviteDto], description: 'newest first' }) invites: InviteDto[];
}

export class AdminStatsDto {
  @ApiProperty({ type: 'integer' }) users: number;
  @ApiProperty({ type: 'integer' }) disabledUsers: number;
  @ApiProperty({ type: 'integer', description: 'files not in the trash' }) files: number;
  @ApiProperty({
    type: 'integer',
    description: 'bytes stored, every version of every file counted (the sum of the accounts’ usage)',
  })
  bytes: number;
  @ApiProperty({ type: 'integer', description: 'every share, revoked or not' }) shares: number;
  @ApiProperty({
    type: 'integer',
    description: 'shares a visitor can open now: not revoked, expired or used up, file not in the trash, owner not disabled',
  })
  activeShares: number;
  @ApiProperty({ type: 'integer', description: 'admitted visits since midnight UTC' }) visitsToday: number;
}

export class AdminAuditQueryDto {
  @ApiProperty({
    required: false,
    format: 'uuid',
    description: 'events of this account, and administrator actions that name it as target',
  })
  @IsOptional()
  @Matches(UUID, { message: 'userId 必须是账户 id' })
  userId?: string;

  @ApiProperty({ required: false, enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: 'action 不是已知的审计操作' })
  action?: AuditAction;

  @IsOptional()
  @IsString({ message: LIMIT_MESSAGE })
  limit?: string;

  @IsOptional()
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

export class AdminAuditExportQueryDto {
  @ApiProperty({
    required: false,
    format: 'uuid',
    description: 'events of this account, and administrator actions that name it as target',
  })
  @IsOptional()
  @Matches(UUID, { message: 'userId 必须是账户 id' })
  userId?: string;

  @ApiProperty({ required: false, enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: 'action 不是已知的审计操作' })
  action?: AuditAction;
}

export class AdminAuditEventDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'the account whose trail holds the event' }) userId: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: AuditAction;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'the administrator who acted; null when the account acted itself',
  })
  actorId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'what was acted on (token, share, file, session, account…)' })
  targetId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true, example: '203.0.113.0/24' }) ipPrefix: string | null;
}

export class AdminAuditPageDto {
  @ApiProperty({ type: [AdminAuditEventDto], description: 'newest first' }) events: AdminAuditEventDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'pass as `cursor` (with the same filters) for the next page; null on the last page',
  })
  nextCursor: string | null;
}
