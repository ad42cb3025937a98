import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gate row's columns as this migration left them (a later migration's down() restores them). */
export const SHARE_GATE_COLUMNS = `s.id, s.user_id, u.segment, s.token, s.file_id, f.name, f.kind, f.deleted_at IS NOT NULL AS trashed,
          s.revoked_at IS NOT NULL AS revoked,
          (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
          (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
          s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
          s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
          s.burn_after_read_enabled,
          coalesce(pinned.id, clean.id, cur.id) AS version_id,
          CASE WHEN pinned.id IS NOT NULL THEN pinned.scan_status ELSE coalesce(clean.scan_status, cur.scan_status) END AS scan_status`;

export const SHARE_GATE_FROM = `FROM shares s
        JOIN users u ON u.id = s.user_id
        JOIN files f ON f.id = s.file_id
        LEFT JOIN file_versions pinned ON pinned.id = s.locked_version_id
        LEFT JOIN file_versions cur ON cur.id = f.current_version_id
        LEFT JOIN LATERAL (
          SELECT v.id, v.scan_status FROM file_versions v
          WHERE v.file_id = f.id AND v.scan_status = 'CLEAN'
          ORDER BY v.version_no DESC LIMIT 1
        ) clean ON s.locked_version_id IS NULL AND cur.scan_status IS DISTINCT FROM 'INFECTED'`;

/**
 * Notifications of share visits, per owner.
 *
 * `shares.notify` is the owner's choice (off, first, every, daily). The gate row the viewer reads
 * anyway carries it as `notify`, already reduced to `off` for a `first` share whose first visit was
 * notified, so a visit to a share that notifies nothing costs no query at all; the visit log's
 * batch statement writes the notifications of the visits it logs. `first_visit_notified_at` is set
 * by a conditional update in that statement: of any number of parallel first visits on any
 * number of replicas exactly one finds it null.
 *
 * A daily digest is unique per owner and UTC day (`digest_day`), so any number of workers running
 * the digest of a day write it once. A notification outlives its share (share_id set null, the
 * file name kept) until the retention sweep deletes it. `seq` orders an owner's list and is its
 * page cursor; the partial index answers the unread count.
 */
export class Notifications1763700001200 implements MigrationInterface {
  name = 'Notifications1763700001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE shares
        ADD COLUMN notify text NOT NULL DEFAULT 'off' CHECK (notify IN ('off', 'first', 'every', 'daily')),
        ADD COLUMN first_visit_notified_at timestamptz;
      CREATE INDEX shares_notify_daily ON shares (user_id) WHERE notify = 'daily';

      CREATE OR REPLACE VIEW share_gate AS
        SELECT ${SHARE_GATE_COLUMNS},
          CASE WHEN s.notify = 'first' AND s.first_visit_notified_at IS NOT NULL THEN 'off' ELSE s.notify END AS notify
        ${SHARE_GATE_FROM};

      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('first_visit', 'visit', 'daily_digest')),
        share_id uuid REFERENCES shares(id) ON DELETE SET NULL,
        file_name text,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        digest_day date,
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz,
        CHECK ((kind = 'daily_digest') = (digest_day IS NOT NULL))
      );
      CREATE INDEX notifications_user_seq ON notifications (user_id, seq DESC);
      CREATE INDEX notifications_user_unread ON notifications (user_id, seq DESC) WHERE read_at IS NULL;
      CREATE UNIQUE INDEX notifications_user_digest_day ON notifications (user_id, digest_day) WHERE kind = 'daily_digest';
      CREATE INDEX notifications_created_at ON notifications (created_at);
      CREATE INDEX notifications_share ON notifications (share_id) WHERE share_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE IF EXISTS notifications;
      DROP VIEW share_gate;
      CREATE VIEW share_gate AS SELECT ${SHARE_GATE_COLUMNS} ${SHARE_GATE_FROM};
      ALTER TABLE shares DROP COLUMN IF EXISTS first_visit_notified_at, DROP COLUMN IF EXISTS notify;
    `);
  }
}
