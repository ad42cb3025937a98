import { ApiProperty } from '@nestjs/swagger';
import { LIMITS, SEGMENT_PATTERN } from '@sharedown/contract/limits';
import { IsEmail, IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../auth/auth-context.js';
import { NEXT_CURSOR_DESCRIPTION } from '../common/api-page-queries.decorator.js';
import { NoControlCharacters } from '../common/text/text-rules.js';

export const WORKSPACE_NAME = { min: 1, max: 80 } as const;
/** Days an invitation stays good. */
export const INVITATION_DAYS = 7;

const SEGMENT_MESSAGE = 'segment 必须为 3-32 位小写字母、数字、_ 或 -，且以字母或数字开头';

export class WorkspaceDto {
  @ApiProperty({ format: 'uuid', description: 'for a personal workspace, its account’s id' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'the URL segment of its links: /s/<segment>/<token>' }) segment: string;
  @ApiProperty({ description: 'the account’s own workspace, which has no other members' }) personal: boolean;
  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole', description: 'the caller’s role in it' }) role: WorkspaceRole;
  @ApiProperty({ type: 'integer' }) quotaBytes: number;
  @ApiProperty({ type: 'integer' }) usedBytes: number;
  @ApiProperty({ type: 'integer' }) memberCount: number;
}

export class WorkspaceResponseDto {
  @ApiProperty({ type: WorkspaceDto }) workspace: WorkspaceDto;
}

export class WorkspaceListDto {
  @ApiProperty({ type: [WorkspaceDto], description: 'the personal workspace first, then the shared ones by name' })
  workspaces: WorkspaceDto[];
}

export class CreateWorkspaceDto {
  @ApiProperty({ minLength: WORKSPACE_NAME.min, maxLength: WORKSPACE_NAME.max, example: 'Sales' })
  @IsString({ message: 'name 必须是字符串' })
  @Length(WORKSPACE_NAME.min, WORKSPACE_NAME.max, {
    message: `name 长度必须在 ${WORKSPACE_NAME.min} 到 ${WORKSPACE_NAME.max} 个字符之间`,
  })
  @NoControlCharacters('name')
  name: string;

  @ApiProperty({
    pattern: SEGMENT_PATTERN.source,
    description: 'unique among accounts’ and workspaces’ segments',
    example: 'sales',
  })
  @IsString({ message: SEGMENT_MESSAGE })
  @Matches(SEGMENT_PATTERN, { message: SEGMENT_MESSAGE })
  segment: string;
}

export class RenameWorkspaceDto {
  @ApiProperty({ minLength: WORKSPACE_NAME.min, maxLength: WORKSPACE_NAME.max })
  @IsString({ message: 'name 必须是字符串' })
  @Length(WORKSPACE_NAME.min, WORKSPACE_NAME.max, {
    message: `name 长度必须在 ${WORKSPACE_NAME.min} 到 ${WORKSPACE_NAME.max} 个字符之间`,
  })
  @NoControlCharacters('name')
  name: string;
}

export class MemberDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' }) role: WorkspaceRole;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class MemberListDto {
  @ApiProperty({ type: [MemberDto] }) members: MemberDto[];
  @ApiProperty({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION }) nextCursor: string | null;
}

export class MemberResponseDto {
  @ApiProperty({ type: MemberDto }) member: MemberDto;
}

export class SetRoleDto {
  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' })
  @IsIn(WORKSPACE_ROLES, { message: `role 必须是 ${WORKSPACE_ROLES.join('、')} 之一` })
  role: WorkspaceRole;
}

export class CreateInvitationDto {
  @ApiProperty({ format: 'email', maxLength: LIMITS.email.max })
  @IsEmail({}, { message: 'email 必须是有效的电子邮件地址' })
  @MaxLength(LIMITS.email.max, { message: `email 最长 ${LIMITS.email.max} 个字符` })
  email: string;

  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' })
  @IsIn(WORKSPACE_ROLES, { message: `role 必须是 ${WORKSPACE_ROLES.join('、')} 之一` })
  role: WorkspaceRole;
}

export class InvitationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' }) role: WorkspaceRole;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class CreatedInvitationDto {
  @ApiProperty({ type: InvitationDto }) invitation: InvitationDto;
  @ApiProperty({ description: 'the link that accepts it (single use), also mailed when SMTP is set' }) url: string;
}

export class InvitationListDto {
  @ApiProperty({ type: [InvitationDto], description: 'pending invitations, newest first' }) invitations: InvitationDto[];
  @ApiProperty({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION }) nextCursor: string | null;
}

export class InvitationResponseDto {
  @ApiProperty({ type: InvitationDto }) invitation: InvitationDto;
}

/** What an invitation's link shows before it is accepted. */
export class InvitationPreviewDto {
  @ApiProperty() workspaceName: string;
  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' }) role: WorkspaceRole;
  @ApiProperty() email: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
