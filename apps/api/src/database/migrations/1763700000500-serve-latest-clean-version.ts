import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A share without a pinned version serves the file's newest CLEAN version, so uploading
 * a new version does not take a working link offline while the new one is scanned. When
 * no version is CLEAN yet, the current version's status decides the page (scanning, scan
 * error). A quarantined current version (INFECTED) quarantines the whole file: 410.
 */
export class ServeLatestCleanVersion1763700000500 implements MigrationInterface {
  name = 'ServeLatestCleanVersion1763700000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE VIEW share_gate AS
        SELECT s.id, s.user_id, u.segment, s.token, s.file_id, f.name, f.kind, f.deleted_at IS NOT NULL AS trashed,
          s.revoked_at IS NOT NULL AS revoked,
          (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
          (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
          s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
          s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
          s.burn_after_read_enabled,
          coalesce(pinned.id, clean.id, cur.id) AS version_id,
          CASE WHEN pinned.id IS NOT NULL THEN pinned.scan_status ELSE coalesce(clean.scan_status, cur.scan_status) END AS scan_status
        FROM shares s
        JOIN users u ON u.id = s.user_id
        JOIN files f ON f.id = s.file_id
        LEFT JOIN file_versions pinned ON pinned.id = s.locked_version_id
        LEFT JOIN file_versions cur ON cur.id = f.current_version_id
        LEFT JOIN LATERAL (
          SELECT v.id, v.scan_status FROM file_versions v
          WHERE v.file_id = f.id AND v.scan_status = 'CLEAN'
          ORDER BY v.version_no DESC LIMIT 1
        ) clean ON s.locked_version_id IS NULL AND cur.scan_status IS DISTINCT FROM 'INFECTED';
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE VIEW share_gate AS
        SELECT s.id, s.user_id, u.segment, s.token, s.file_id, f.name, f.kind, f.deleted_at IS NOT NULL AS trashed,
          s.revoked_at IS NOT NULL AS revoked,
          (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
          (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
          s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
          s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
          s.burn_after_read_enabled, v.id AS version_id, v.scan_status
        FROM shares s
        JOIN users u ON u.id = s.user_id
        JOIN files f ON f.id = s.file_id
        LEFT JOIN file_versions v ON v.id = coalesce(s.locked_version_id, f.current_version_id);
    `);
  }
}
