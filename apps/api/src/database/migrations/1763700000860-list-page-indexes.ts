import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes in the order the lists are read, so a page (`limit` and `cursor`) is a range scan that
 * stops after the page instead of a sort of the owner's every row: live files by name then id,
 * in all folders or in one, shares newest first then by id, API tokens and webhooks newest first.
 * Each new index of shares, tokens and webhooks leads with the columns of the one it replaces.
 */
export class ListPageIndexes1763700000860 implements MigrationInterface {
  name = 'ListPageIndexes1763700000860';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX files_live_order_idx ON files (user_id, name, id) WHERE deleted_at IS NULL;
      CREATE INDEX files_live_folder_order_idx ON files (user_id, folder_id, name, id) WHERE deleted_at IS NULL;
      CREATE INDEX shares_user_order_idx ON shares (user_id, created_at DESC, id);
      DROP INDEX shares_user_idx;
      CREATE INDEX api_tokens_user_order_idx ON api_tokens (user_id, created_at DESC, id DESC);
      DROP INDEX api_tokens_user_idx;
      CREATE INDEX webhooks_user_order_idx ON webhooks (user_id, created_at DESC, id DESC);
      DROP INDEX webhooks_user_idx;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX webhooks_user_idx ON webhooks (user_id);
      DROP INDEX webhooks_user_order_idx;
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);
      DROP INDEX api_tokens_user_order_idx;
      CREATE INDEX shares_user_idx ON shares (user_id, created_at DESC);
      DROP INDEX shares_user_order_idx;
      DROP INDEX files_live_folder_order_idx;
      DROP INDEX files_live_order_idx;
    `);
  }
}
