import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { AUDIT_ACTIONS, type AuditAction } from './audit-action.js';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export class AuditQueryDto {
  @ApiProperty({ required: false, description: 'the `nextCursor` of the previous page: events older than it' })
  @IsOptional()
  // Query values arrive as strings (the global pipe does not transform).
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'cursor 必须是上一页返回的 nextCursor' })
  cursor?: string;

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT })
  @IsOptional()
  @Matches(/^(?:[1-9]|[1-9]\d|1\d\d|200)$/, { message: `limit 必须是 1 到 ${AUDIT_PAGE_MAX} 之间的整数` })
  limit?: string;

  @ApiProperty({
    required: false,
    format: 'uuid',
    description: 'only what this member did (in a shared workspace: a member’s userId)',
  })
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'actor 必须是成员的 userId' })
  actor?: string;
}

export class ActorDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() email: string;
}

export class AuditEventDto {
  @ApiProperty({ format: 'uuid', description: 'the last one of a page is the cursor of the next' }) id: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: AuditAction;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'the administrator who acted for the account; null when the account acted itself',
  })
  actorId: string | null;
  @ApiProperty({
    type: ActorDto,
    nullable: true,
    description: 'who acted: the member (in a shared workspace), the administrator, or the account itself; null once deleted',
  })
  actor: ActorDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'the token, webhook, share, file, folder or session acted on' })
  targetId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'names and counts about the action (never a secret)' })
  details: Record<string, unknown>;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'masked network (/24 or /48), never the full address',
    example: '203.0.113.0/24',
  })
  ipPrefix: string | null;
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditEventDto], description: 'newest first' }) events: AuditEventDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last page' })
  nextCursor: string | null;
}
