import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { AdminUsersQueryDto, MAX_QUOTA_BYTES } from './admin.dto.js';

/** The same search and paging as the accounts' list; `q` matches the name or the segment (documented on the route). */
export class AdminWorkspacesQueryDto extends AdminUsersQueryDto {}

export class AdminWorkspaceOwnerDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ format: 'email' }) email: string;
}

/** A shared workspace as administrators see it: who owns it, how many work in it, what it stores. */
export class AdminWorkspaceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'public segment used in the share URLs of the workspace' }) segment: string;
  @ApiProperty({ type: [AdminWorkspaceOwnerDto], description: 'the members whose role is OWNER, earliest first' })
  owners: AdminWorkspaceOwnerDto[];
  @ApiProperty({ type: 'integer' }) memberCount: number;
  @ApiProperty({ type: 'integer' }) quotaBytes: number;
  @ApiProperty({ type: 'integer', description: 'may exceed quotaBytes after a quota was lowered below it' }) usedBytes: number;
  @ApiProperty({ type: 'integer', description: 'files not in the trash' }) fileCount: number;
  @ApiProperty({ type: 'integer', description: 'every share, revoked or not' }) shareCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AdminWorkspacesPageDto {
  @ApiProperty({ type: [AdminWorkspaceDto], description: 'newest workspaces first' }) workspaces: AdminWorkspaceDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last' })
  nextCursor: string | null;
}

export class UpdateAdminWorkspaceDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_QUOTA_BYTES,
    description:
      'the storage quota in bytes. It may be set below what the workspace uses: nothing is deleted, and uploads are refused (413 OVER_QUOTA) until enough is freed',
  })
  @IsInt({ message: 'quotaBytes 必须是整数' })
  @Min(0, { message: `quotaBytes 必须在 0 到 ${MAX_QUOTA_BYTES} 之间` })
  @Max(MAX_QUOTA_BYTES, { message: `quotaBytes 必须在 0 到 ${MAX_QUOTA_BYTES} 之间` })
  quotaBytes: number;
}
