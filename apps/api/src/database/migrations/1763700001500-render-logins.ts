import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sign-in carried over to a render host on another domain is a session of its own, tied to the
 * console session it came from (`parent_id`): signing that session out ends it (cascade), "sign
 * out everywhere else", a password change and an administrator's disabling end it like any other
 * session, and it is checked in the database on every request, so on every replica at once. The
 * one-minute tickets that carry a sign-in over are single-use: a used ticket's id is kept until
 * the ticket would have expired anyway.
 */
export class RenderLogins1763700001500 implements MigrationInterface {
  name = 'RenderLogins1763700001500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sessions ADD COLUMN parent_id uuid REFERENCES sessions(id) ON DELETE CASCADE;
      CREATE INDEX sessions_parent_idx ON sessions (parent_id) WHERE parent_id IS NOT NULL;
      CREATE TABLE used_login_tickets (
        id text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX used_login_tickets_expiry_idx ON used_login_tickets (expires_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE used_login_tickets;
      DELETE FROM sessions WHERE parent_id IS NOT NULL;
      ALTER TABLE sessions DROP COLUMN parent_id;
    `);
  }
}
