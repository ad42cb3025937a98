import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record of every change an owner makes to a live share's policies: who, when, and the new
 * value of each field changed (a password only as "set" or "removed", never the password).
 */
export class SharePolicyChanges1763700000910 implements MigrationInterface {
  name = 'SharePolicyChanges1763700000910';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE share_policy_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        changes jsonb NOT NULL
      );
      CREATE INDEX share_policy_changes_share_at ON share_policy_changes (share_id, at DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS share_policy_changes`);
  }
}
