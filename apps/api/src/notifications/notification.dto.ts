import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsUUID, Matches } from 'class-validator';

export const NOTIFICATION_KINDS = ['first_visit', 'visit', 'daily_digest', 'request_upload'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const DEFAULT_NOTIFICATION_PAGE = 20;
export const MAX_NOTIFICATION_PAGE = 100;
/** The most ids one mark-read request may name. */
export const MAX_READ_IDS = 500;

export class NotificationsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_NOTIFICATION_PAGE,
    description: `default ${DEFAULT_NOTIFICATION_PAGE}`,
  })
  @IsOptional()
  // Query values arrive as strings (the global pipe does not transform); the range is checked by the service.
  @Matches(/^\d{1,4}$/, { message: `limit 必须是 1 到 ${MAX_NOTIFICATION_PAGE} 之间的整数` })
  limit?: string;

  @ApiPropertyOptional({ description: 'the nextCursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'cursor 无效：请使用上一页答复中的 nextCursor' })
  cursor?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only unread notifications' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'unread 必须是 true 或 false' })
  unread?: 'true' | 'false';
}

/** One share of a daily digest. */
export class DigestShareDto {
  @ApiProperty() shareId: string;
  @ApiProperty() fileName: string;
  @ApiProperty({ type: 'integer', description: 'visits by people that day' }) visits: number;
  @ApiProperty({ type: 'integer', description: 'visits marked automated that day' }) automatedVisits: number;
}

/**
 * What a notification says. A visit (`first_visit`, `visit`): the share's counts after it and who
 * came, as the visit log keeps it (the address only as its masked prefix). A digest
 * (`daily_digest`): the UTC day, the totals and one entry per share.
 */
export class NotificationDataDto {
  @ApiPropertyOptional({ description: "visit notifications: the visit in the share's visit log" }) visitId?: string;
  @ApiPropertyOptional({ type: 'integer', description: "visit notifications: the share's visit count after this visit" })
  visitCount?: number;
  @ApiPropertyOptional({ type: 'integer', description: "visit notifications: the share's distinct visitors after this visit" })
  uniqueVisitCount?: number;
  @ApiPropertyOptional({ description: 'visit notifications: the masked network prefix, as in webhooks' }) ipPrefix?: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) referer?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) browser?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) os?: string | null;
  @ApiPropertyOptional({ enum: ['desktop', 'mobile', 'tablet', 'other'] }) device?: string;
  @ApiPropertyOptional({ format: 'date', description: 'daily digests: the UTC day it covers' }) day?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'daily digests: visits by people over all its shares' }) visits?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'daily digests: automated visits over all its shares' })
  automatedVisits?: number;
  @ApiPropertyOptional({ type: [DigestShareDto], description: 'daily digests: each share with visits that day' })
  shares?: DigestShareDto[];
  @ApiPropertyOptional({ description: 'request uploads: the document request' }) requestId?: string;
  @ApiPropertyOptional({ description: 'request uploads: its title' }) requestTitle?: string;
  @ApiPropertyOptional({ description: 'request uploads: the upload' }) uploadId?: string;
  @ApiPropertyOptional({ description: 'request uploads: the file it became' }) fileId?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'request uploads: bytes' }) sizeBytes?: number;
  @ApiPropertyOptional({ description: 'request uploads: the name the uploader gave' }) uploaderName?: string;
  @ApiPropertyOptional({ enum: ['CLEAN', 'INFECTED'], description: 'request uploads: how its scan settled' })
  scanStatus?: string;
}

export class NotificationDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS, enumName: 'NotificationKind' }) kind: NotificationKind;
  @ApiProperty({ type: 'string', nullable: true, description: 'null for a daily digest, or once the share is deleted' })
  shareId: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "the shared file's name when it was written; null for a daily digest",
  })
  fileName: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) readAt: string | null;
  @ApiProperty({ type: NotificationDataDto }) data: NotificationDataDto;
}

export class NotificationPageDto {
  @ApiProperty({ type: [NotificationDto], description: 'newest first' }) notifications: NotificationDto[];
  @ApiProperty({ type: 'integer', description: 'unread notifications of the account, over all pages' }) unreadCount: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'pass as `cursor` for the next page; null on the last page' })
  nextCursor: string | null;
}

export class MarkNotificationsReadDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_READ_IDS,
    description: 'the notifications to mark read; absent: all of them',
  })
  @IsOptional()
  @IsArray({ message: 'ids 必须是通知 id 的数组' })
  @ArrayMaxSize(MAX_READ_IDS, { message: `ids 最多 ${MAX_READ_IDS} 个` })
  @IsUUID('all', { each: true, message: 'ids 中的每一项都必须是通知 id' })
  ids?: string[];
}

export class UnreadCountDto {
  @ApiProperty({ type: 'integer' }) unreadCount: number;
}
