import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';
import type { NotificationDataDto, NotificationDto, NotificationKind } from './notification.dto.js';

/** COLUMNS. */
type NotificationRow = Columns<
  'notifications',
  'id' | 'seq' | 'kind' | 'share_id' | 'file_name' | 'data' | 'created_at' | 'read_at',
  { kind: NotificationKind; data: NotificationDataDto }
>;

const COLUMNS = 'id, seq, kind, share_id, file_name, data, created_at, read_at';

function toNotification(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    kind: row.kind,
    shareId: row.share_id,
    fileName: row.file_name,
    createdAt: row.created_at.toISOString(),
    readAt: row.read_at ? row.read_at.toISOString() : null,
    data: row.data,
  };
}

/**
 * Who reads notifications: the workspace they belong to and the member reading them. A member
 * reads the workspace's own notifications and those addressed to them (of the links they made);
 * in a personal workspace the two ids are the same account and every notification is theirs.
 */
export interface NotificationReader {
  workspaceId: string;
  memberId: string;
}

/** The notifications a reader sees, with the reader as $2. */
const ADDRESSED_TO_READER = '(recipient_id IS NULL OR recipient_id = $2::uuid)';

/** A notification as its e-mail needs it, with its recipient's address when it is proven (the owner's when it has none). */
export interface MailedNotification {
  email: string;
  userId: string;
  notification: NotificationDto;
}

/** The visits of one share whose mails were folded, for their summary mail. */
export interface FoldedVisits {
  email: string;
  fileName: string | null;
  shareId: string;
  ids: string[];
  first: Date;
  last: Date;
}

/**
 * The digest of one UTC day: per owner, one row listing each of their `daily` shares that had
 * visits by people that day (from the per-day counts the visit log keeps). The unique index on
 * (user_id, digest_day) makes a second run of the same day, on this worker or another, write
 * nothing. Answers the ids written.
 */
const DIGEST_SQL = `
  WITH per_share AS (
    SELECT s.user_id, m.user_id AS recipient_id, s.id AS share_id, coalesce(f.name, fo.name) AS file_name, d.human,
           d.automated
      FROM share_visit_days d
      JOIN shares s ON s.id = d.share_id AND s.notify = 'daily'
      LEFT JOIN files f ON f.id = s.file_id
      LEFT JOIN folders fo ON fo.id = s.folder_id
      LEFT JOIN workspace_members m ON m.workspace_id = s.user_id AND m.user_id = s.created_by
     WHERE d.day = $1::date AND d.human > 0
  )
  INSERT INTO notifications (user_id, recipient_id, kind, digest_day, data)
  SELECT user_id, recipient_id, 'daily_digest', $1::date,
         jsonb_build_object(
           'day', to_char($1::date, 'YYYY-MM-DD'),
           'visits', sum(human),
           'automatedVisits', sum(automated),
           'shares', jsonb_agg(jsonb_build_object('shareId', share_id, 'fileName', file_name, 'visits', human,
                                                  'automatedVisits', automated) ORDER BY human DESC, file_name, share_id))
    FROM per_share
   GROUP BY user_id, recipient_id
  ON CONFLICT (user_id, (coalesce(recipient_id, user_id)), digest_day) WHERE kind = 'daily_digest' DO NOTHING
  RETURNING id`;

/** Every statement on `notifications`; each is scoped to the owner it serves. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly db: DataSource) {}

  /** One page, newest first, after the row with sequence number `before` (exclusive); each with its sequence number. */
  /** A notification of a document request's upload; answers its id. */
  async insertRequestUpload(userId: string, fileName: string, data: Record<string, unknown>): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO notifications (user_id, kind, file_name, data) VALUES ($1, 'request_upload', $2, $3) RETURNING id`,
      [userId, fileName, JSON.stringify(data)],
    );
    return rows[0]!.id;
  }

  async page(
    reader: NotificationReader,
    options: { limit: number; before: string | null; unread: boolean },
  ): Promise<Array<{ seq: string; notification: NotificationDto }>> {
    const rows: NotificationRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM notifications
        WHERE user_id = $1 AND ${ADDRESSED_TO_READER} AND ($3::bigint IS NULL OR seq < $3::bigint)
          AND (NOT $4::boolean OR read_at IS NULL)
        ORDER BY seq DESC LIMIT $5`,
      [reader.workspaceId, reader.memberId, options.before, options.unread, options.limit],
    );
    return rows.map((row) => ({ seq: row.seq, notification: toNotification(row) }));
  }

  async unreadCount(reader: NotificationReader): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND ${ADDRESSED_TO_READER} AND read_at IS NULL`,
      [reader.workspaceId, reader.memberId],
    );
    return rows[0]!.n;
  }

  /** Marks the reader's notifications read (those named, or all); ids of other owners or members match nothing. */
  async markRead(reader: NotificationReader, ids: string[] | null): Promise<void> {
    await this.db.query(
      `UPDATE notifications SET read_at = now()
        WHERE user_id = $1 AND ${ADDRESSED_TO_READER} AND read_at IS NULL AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))`,
      [reader.workspaceId, reader.memberId, ids],
    );
  }

  async writeDigest(day: string): Promise<string[]> {
    return returnedRows<{ id: string }>(await this.db.query(DIGEST_SQL, [day])).map((row) => row.id);
  }

  /** The notification and its owner's address, if the address is proven (an unproven one may be someone else's). */
  async forMail(id: string): Promise<MailedNotification | null> {
    const rows: Array<NotificationRow & { email: string; user_id: string }> = await this.db.query(
      `SELECT n.id, n.seq, n.kind, n.share_id, n.file_name, n.data, n.created_at, n.read_at, u.email, u.id AS user_id
         FROM notifications n JOIN users u ON u.id = coalesce(n.recipient_id, n.user_id)
        WHERE n.id = $1 AND u.email_verified_at IS NOT NULL`,
      [id],
    );
    const row = rows[0];
    return row ? { email: row.email, userId: row.user_id, notification: toNotification(row) } : null;
  }

  /** Marks a notification's mail as folded into its share's next summary; false when it already was. */
  async foldMail(id: string): Promise<boolean> {
    return (
      affectedCount(
        await this.db.query(`UPDATE notifications SET mail_state = 'folded' WHERE id = $1 AND mail_state IS NULL`, [id]),
      ) === 1
    );
  }

  /** The share's folded visits not yet summarized, with the owner's proven address; null when there are none. */
  async foldedVisits(shareId: string): Promise<FoldedVisits | null> {
    const rows: Array<{ id: string; created_at: Date; file_name: string | null; email: string }> = await this.db.query(
      `SELECT n.id, n.created_at, n.file_name, u.email
         FROM notifications n JOIN users u ON u.id = coalesce(n.recipient_id, n.user_id)
        WHERE n.share_id = $1 AND n.mail_state = 'folded' AND u.email_verified_at IS NOT NULL
        ORDER BY n.created_at, n.id`,
      [shareId],
    );
    if (rows.length === 0) return null;
    return {
      email: rows[0]!.email,
      fileName: rows[rows.length - 1]!.file_name,
      shareId,
      ids: rows.map((row) => row.id),
      first: rows[0]!.created_at,
      last: rows[rows.length - 1]!.created_at,
    };
  }

  /** After the summary went out: the visits it covered are summarized, so no later summary repeats them. */
  async markSummarized(ids: readonly string[]): Promise<void> {
    await this.db.query(
      `UPDATE notifications SET mail_state = 'summarized' WHERE id = ANY($1::uuid[]) AND mail_state = 'folded'`,
      [ids],
    );
  }

  /** Deletes notifications older than `days`, in slices so a large backlog holds no long lock. */
  async deleteOlderThan(days: number, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM notifications WHERE id IN (
             SELECT id FROM notifications WHERE created_at < now() - make_interval(days => $1::int) LIMIT $2)`,
          [days, batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
