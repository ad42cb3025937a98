import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import {
  DEFAULT_NOTIFICATION_PAGE,
  MAX_NOTIFICATION_PAGE,
  type NotificationPageDto,
  type NotificationsQueryDto,
  type UnreadCountDto,
} from './notification.dto.js';
import { NotificationsRepository, type NotificationReader } from './notifications.repository.js';

const CURSOR = /^n(\d{1,19})$/;

function encodeCursor(seq: string): string {
  return Buffer.from(`n${seq}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw AppError.validation('cursor 无效：请使用上一页答复中的 nextCursor', 'cursor');
  return match[1]!;
}

/** A reader's notifications (NotificationReader): the console's bell and list, and the token API's. */
@Injectable()
export class NotificationsService {
  constructor(private readonly repository: NotificationsRepository) {}

  async page(reader: NotificationReader, query: NotificationsQueryDto): Promise<NotificationPageDto> {
    const limit = query.limit === undefined ? DEFAULT_NOTIFICATION_PAGE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_NOTIFICATION_PAGE) {
      throw AppError.validation(`limit 必须是 1 到 ${MAX_NOTIFICATION_PAGE} 之间的整数`, 'limit');
    }
    const before = decodeCursor(query.cursor);
    // One row more than asked tells whether another page follows.
    const [rows, unreadCount] = await Promise.all([
      this.repository.page(reader, { limit: limit + 1, before, unread: query.unread === 'true' }),
      this.repository.unreadCount(reader),
    ]);
    const shown = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? encodeCursor(shown[shown.length - 1]!.seq) : null;
    return { notifications: shown.map((row) => row.notification), unreadCount, nextCursor };
  }

  async markRead(reader: NotificationReader, ids: string[] | undefined): Promise<UnreadCountDto> {
    await this.repository.markRead(reader, ids ?? null);
    return { unreadCount: await this.repository.unreadCount(reader) };
  }
}
