import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The frame of an HTML share is fetched with a signed, short-lived ticket that works once. A used
 * ticket's id is recorded here until its expiry, so a second fetch is refused on every replica.
 * Expired rows are deleted by a periodic sweep (`deleteExpiredFrameTickets`).
 */
export class FrameTickets1763700000600 implements MigrationInterface {
  name = 'FrameTickets1763700000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE frame_tickets (
        id text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX frame_tickets_expiry_idx ON frame_tickets (expires_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS frame_tickets');
  }
}
