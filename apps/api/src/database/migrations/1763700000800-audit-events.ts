import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail: security-relevant actions on each account (sign-ins, tokens, webhooks, shares,
 * deletions, two factors, sessions), with who did it when an administrator acted for the account.
 * Rows go with their account. `created_at` is the clock time of the insert (not the transaction's
 * start), so the events of one transaction keep their order; (created_at, id) orders and pages them.
 * A uuid key, like every other table's, lets a backup carry rows over without sequences.
 */
export class AuditEvents1763700000800 implements MigrationInterface {
  name = 'AuditEvents1763700000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        actor_id uuid,
        action text NOT NULL,
        target_id text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        ip_prefix text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE INDEX audit_events_user_id ON audit_events (user_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_events_created_at ON audit_events (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_events`);
  }
}
