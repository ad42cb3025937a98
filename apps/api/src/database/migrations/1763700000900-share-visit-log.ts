import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The visit log: one row per admitted visit, written by the api in batches after the answer has
 * gone out, and updated by the viewer page's engagement beacons. It holds no full address (only the
 * masked prefix) and no cookie value (the visitor id is a keyed digest of the visitor key). Rows
 * older than VISIT_RETENTION_DAYS are deleted by the worker; the hourly counts of
 * share_visit_hours stay.
 *
 * Pages of one share's log are read newest first by (at, id), with or without the automated
 * filter, so each of those reads walks one index from its start; the purge walks `at` alone.
 * `measured` is false for a visitor who asked not to be tracked (DNT or Sec-GPC): such a row is
 * never updated by a beacon.
 *
 * `share_visit_days` counts logged visits per UTC day, human and automated, in the same statement
 * that writes them: the analytics page's series reads a few hundred rows however many visits a
 * share has, and it outlives the retention of the log like the hourly counts.
 */
export class ShareVisitLog1763700000900 implements MigrationInterface {
  name = 'ShareVisitLog1763700000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE share_visit_log (
        id uuid PRIMARY KEY,
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        visitor_id text NOT NULL,
        ip_prefix text NOT NULL,
        referer text,
        user_agent text,
        browser text,
        os text,
        device text NOT NULL CHECK (device IN ('desktop', 'mobile', 'tablet', 'other')),
        login_email text,
        automated boolean NOT NULL,
        measured boolean NOT NULL,
        duration_ms integer CHECK (duration_ms >= 0),
        scroll_depth real CHECK (scroll_depth BETWEEN 0 AND 1),
        completed boolean NOT NULL DEFAULT false
      );
      CREATE INDEX share_visit_log_share_at ON share_visit_log (share_id, at DESC, id DESC);
      CREATE INDEX share_visit_log_share_automated_at ON share_visit_log (share_id, automated, at DESC, id DESC);
      CREATE INDEX share_visit_log_at ON share_visit_log (at);
      CREATE TABLE share_visit_days (
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        day date NOT NULL,
        human integer NOT NULL DEFAULT 0,
        automated integer NOT NULL DEFAULT 0,
        PRIMARY KEY (share_id, day)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS share_visit_days, share_visit_log`);
  }
}
