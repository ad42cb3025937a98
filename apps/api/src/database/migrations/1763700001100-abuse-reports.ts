import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Abuse reports an administrator acts on.
 *
 * `share_reports` gains its resolution: `status` (open, dismissed, share_disabled,
 * owner_disabled), `resolved_at` and `resolved_by` (the administrator). A report outlives its
 * share: an owner who purges the reported file, or an account deleted by an administrator, must
 * not erase what visitors said about it, so `share_id` becomes nullable (ON DELETE SET NULL) and
 * the report keeps what identified the share when it was filed (`owner_id`, `share_token`,
 * `file_name`).
 *
 * `shares.disabled_at`: an administrator took the link out of service after a report. Such a
 * share is also revoked (every path that refuses a revoked link refuses it, and the owner's
 * listing shows it revoked); the owner cannot undo either. `share_gate.disabled` lets the viewer
 * tell the visitor why.
 */
export class AbuseReports1763700001100 implements MigrationInterface {
  name = 'AbuseReports1763700001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE share_reports
        ADD COLUMN status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'share_disabled', 'owner_disabled')),
        ADD COLUMN resolved_at timestamptz,
        ADD COLUMN resolved_by uuid REFERENCES users(id) ON DELETE SET NULL,
        ADD COLUMN owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
        ADD COLUMN share_token text,
        ADD COLUMN file_name text;
      UPDATE share_reports r SET owner_id = s.user_id, share_token = s.token, file_name = f.name
        FROM shares s JOIN files f ON f.id = s.file_id WHERE s.id = r.share_id;
      ALTER TABLE share_reports
        ALTER COLUMN share_token SET NOT NULL,
        ALTER COLUMN file_name SET NOT NULL,
        ALTER COLUMN share_id DROP NOT NULL,
        ADD CONSTRAINT share_reports_resolution_check CHECK ((status = 'open') = (resolved_at IS NULL)),
        DROP CONSTRAINT share_reports_share_id_fkey,
        ADD CONSTRAINT share_reports_share_id_fkey FOREIGN KEY (share_id) REFERENCES shares(id) ON DELETE SET NULL;
      CREATE INDEX share_reports_order_idx ON share_reports (created_at DESC, id DESC);
      CREATE INDEX share_reports_open_order_idx ON share_reports (created_at DESC, id DESC) WHERE status = 'open';
      CREATE INDEX share_reports_share_idx ON share_reports (share_id, created_at DESC, id DESC);
      CREATE INDEX share_reports_owner_idx ON share_reports (owner_id);
      CREATE INDEX share_reports_resolver_idx ON share_reports (resolved_by);

      ALTER TABLE shares ADD COLUMN disabled_at timestamptz;
      ALTER TABLE shares ADD CONSTRAINT shares_disabled_revoked_check CHECK (disabled_at IS NULL OR revoked_at IS NOT NULL);
    `);
    await queryRunner.query(SHARE_GATE(true));
    await queryRunner.query(SHARE_OPEN_VISITS(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP FUNCTION share_open_visits(text, text, text[]);
      DROP VIEW share_gate;
    `);
    await queryRunner.query(SHARE_GATE(false));
    await queryRunner.query(SHARE_OPEN_VISITS(false));
    await queryRunner.query(`
      ALTER TABLE shares DROP CONSTRAINT shares_disabled_revoked_check;
      ALTER TABLE shares DROP COLUMN disabled_at;
      DROP INDEX share_reports_order_idx, share_reports_open_order_idx, share_reports_share_idx, share_reports_owner_idx,
        share_reports_resolver_idx;
      DELETE FROM share_reports WHERE share_id IS NULL;
      ALTER TABLE share_reports
        DROP CONSTRAINT share_reports_share_id_fkey,
        ADD CONSTRAINT share_reports_share_id_fkey FOREIGN KEY (share_id) REFERENCES shares(id) ON DELETE CASCADE,
        ALTER COLUMN share_id SET NOT NULL,
        DROP CONSTRAINT share_reports_resolution_check,
        DROP COLUMN status, DROP COLUMN resolved_at, DROP COLUMN resolved_by, DROP COLUMN owner_id,
        DROP COLUMN share_token, DROP COLUMN file_name;
    `);
  }
}

/** The gate's view as 1763700001000 left it, with `disabled` appended when `withDisabled`. */
function SHARE_GATE(withDisabled: boolean): string {
  return `
    CREATE OR REPLACE VIEW share_gate AS
      SELECT s.id, s.user_id, u.segment, s.token, s.file_id, f.name, f.kind, f.deleted_at IS NOT NULL AS trashed,
        s.revoked_at IS NOT NULL AS revoked,
        (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
        (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
        s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
        s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
        s.burn_after_read_enabled,
        coalesce(pinned.id, clean.id, cur.id) AS version_id,
        CASE WHEN pinned.id IS NOT NULL THEN pinned.scan_status ELSE coalesce(clean.scan_status, cur.scan_status) END AS scan_status,
        u.disabled_at IS NOT NULL AS owner_disabled${withDisabled ? ',\n        s.disabled_at IS NOT NULL AS disabled' : ''}
      FROM shares s
      JOIN users u ON u.id = s.user_id
      JOIN files f ON f.id = s.file_id
      LEFT JOIN file_versions pinned ON pinned.id = s.locked_version_id
      LEFT JOIN file_versions cur ON cur.id = f.current_version_id
      LEFT JOIN LATERAL (
        SELECT v.id, v.scan_status FROM file_versions v
        WHERE v.file_id = f.id AND v.scan_status = 'CLEAN'
        ORDER BY v.version_no DESC LIMIT 1
      ) clean ON s.locked_version_id IS NULL AND cur.scan_status IS DISTINCT FROM 'INFECTED';`;
}

/**
 * share_open_visits as 1763700001000 left it, written again so that every connection plans it
 * against the view's new row type; a disabled share is revoked too, and is named for clarity.
 */
function SHARE_OPEN_VISITS(withDisabled: boolean): string {
  return `
    CREATE OR REPLACE FUNCTION share_open_visits(p_token text, p_segment text, p_visitors text[])
    RETURNS TABLE (idx integer, outcome text, visit_no integer, unique_no integer, gate json)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      g share_gate;
      n integer := coalesce(array_length(p_visitors, 1), 0);
    BEGIN
      SELECT * INTO g FROM share_gate sg WHERE lower(sg.token) = lower(p_token);
      IF NOT FOUND OR (p_segment IS NOT NULL AND lower(g.segment) <> lower(p_segment)) THEN
        RETURN;
      END IF;
      RETURN QUERY SELECT 0, NULL::text, 0, 0, row_to_json(g);
      IF g.revoked OR g.trashed OR g.expired OR g.consumed OR g.scan_status IS DISTINCT FROM 'CLEAN'
         OR g.has_password OR g.require_login OR g.one_time OR g.burn_after_read_enabled OR g.one_session
         OR g.owner_disabled${withDisabled ? ' OR g.disabled' : ''} THEN
        RETURN;
      END IF;
      RETURN QUERY
        SELECT a.idx, a.outcome, a.visit_no, a.unique_no, NULL::json
        FROM share_admit_visits(g.id, p_visitors, array_fill(NULL::uuid, ARRAY[n]), array_fill(NULL::text, ARRAY[n])) a;
    END
    $fn$;`;
}
