import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `notify: every` mails each visit, up to a cap per share and per owner an hour; a visit over the
 * cap is not mailed on its own but folded (`mail_state = 'folded'`) into one summary mail of its
 * share, which marks what it covered `summarized`. The in-app notification is written either way.
 */
export class NotificationMailFolding1763700001400 implements MigrationInterface {
  name = 'NotificationMailFolding1763700001400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE notifications ADD COLUMN mail_state text CHECK (mail_state IN ('folded', 'summarized'));
      CREATE INDEX notifications_share_folded ON notifications (share_id) WHERE mail_state = 'folded';
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX notifications_share_folded;
      ALTER TABLE notifications DROP COLUMN mail_state;
    `);
  }
}
