import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications of a link go to the member who made it.
 *
 * - `notifications.recipient_id`: the member of a shared workspace a notification is addressed
 *   to, set when it is written if the link's creator (`shares.created_by`) is a member then. Such
 *   a notification is listed and mailed to that member only. NULL (a personal workspace's, or a
 *   link whose creator has left) is the workspace's, as every notification was before.
 * - A daily digest is unique per workspace, recipient and day, so each creator gets one digest of
 *   their own links and the workspace one of the rest.
 */
export class NotificationRecipients1763700002600 implements MigrationInterface {
  name = 'NotificationRecipients1763700002600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE notifications ADD COLUMN recipient_id uuid REFERENCES users(id) ON DELETE SET NULL;
      DROP INDEX notifications_user_digest_day;
      CREATE UNIQUE INDEX notifications_user_digest_day
        ON notifications (user_id, (coalesce(recipient_id, user_id)), digest_day) WHERE kind = 'daily_digest';
      CREATE INDEX notifications_recipient ON notifications (recipient_id) WHERE recipient_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX notifications_recipient;
      DROP INDEX notifications_user_digest_day;
      DELETE FROM notifications WHERE recipient_id IS NOT NULL AND kind = 'daily_digest';
      ALTER TABLE notifications DROP COLUMN recipient_id;
      CREATE UNIQUE INDEX notifications_user_digest_day ON notifications (user_id, digest_day) WHERE kind = 'daily_digest';
    `);
  }
}
