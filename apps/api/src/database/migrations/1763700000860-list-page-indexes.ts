import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes in the order the lists are read, so a page (`limit` and `cursor`) is a range scan that
 * stops after the page instead of a sort of the owner's every row: live files by name then id,
 * in all folders or in one, and shares newest first then by id. The new shares index leads with
 * the columns of shares_user_idx and replaces it.
 */
export class ListPageIndexes1763700000860 implements MigrationInterface {
  name = 'ListPageIndexes1763700000860';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX files_live_order_idx ON files (user_id, name, id) WHERE deleted_at IS NULL;
      CREATE INDEX files_live_folder_order_idx ON files (user_id, folder_id, name, id) WHERE deleted_at IS NULL;
      CREATE INDEX shares_user_order_idx ON shares (user_id, created_at DESC, id);
      DROP INDEX shares_user_idx;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX shares_user_idx ON shares (user_id, created_at DESC);
      DROP INDEX shares_user_order_idx;
      DROP INDEX files_live_folder_order_idx;
      DROP INDEX files_live_order_idx;
    `);
  }
}
