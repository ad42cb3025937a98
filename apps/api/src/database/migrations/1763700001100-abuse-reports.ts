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
 * listing shows it revoked); the owner cannot undo either. The gate row share_open_visits returns
 * carries `disabled`, so the viewer can tell the visitor why.
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
    await queryRunner.query(SHARE_OPEN_VISITS(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
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

/**
 * share_open_visits as 1763700001000 left it (the owner's status read by its key and added to the
 * gate row it returns), now also adding `disabled`. A disabled share is revoked too, so no visit
 * was ever admitted to it; the share's row is read only for a revoked link, to tell the visitor
 * why, and the common view pays nothing for it. The `share_gate` view stays as it is.
 */
function SHARE_OPEN_VISITS(withDisabled: boolean): string {
  const disabled = withDisabled
    ? `v_disabled := g.revoked AND EXISTS (SELECT 1 FROM shares s WHERE s.id = g.id AND s.disabled_at IS NOT NULL);
      `
    : '';
  const extra = withDisabled ? ", 'disabled', v_disabled" : '';
  return `
    CREATE OR REPLACE FUNCTION share_open_visits(p_token text, p_segment text, p_visitors text[])
    RETURNS TABLE (idx integer, outcome text, visit_no integer, unique_no integer, gate json)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      g share_gate;
      n integer := coalesce(array_length(p_visitors, 1), 0);
      v_owner_disabled boolean := false;
      v_disabled boolean := false;
    BEGIN
      SELECT * INTO g FROM share_gate sg WHERE lower(sg.token) = lower(p_token);
      IF NOT FOUND OR (p_segment IS NOT NULL AND lower(g.segment) <> lower(p_segment)) THEN
        RETURN;
      END IF;
      v_owner_disabled := EXISTS (SELECT 1 FROM users u WHERE u.id = g.user_id AND u.disabled_at IS NOT NULL);
      ${disabled}RETURN QUERY SELECT 0, NULL::text, 0, 0,
        (to_jsonb(g) || jsonb_build_object('owner_disabled', v_owner_disabled${extra}))::json;
      IF g.revoked OR g.trashed OR g.expired OR g.consumed OR g.scan_status IS DISTINCT FROM 'CLEAN'
         OR g.has_password OR g.require_login OR g.one_time OR g.burn_after_read_enabled OR g.one_session
         OR v_owner_disabled THEN
        RETURN;
      END IF;
      RETURN QUERY
        SELECT a.idx, a.outcome, a.visit_no, a.unique_no, NULL::json
        FROM share_admit_visits(g.id, p_visitors, array_fill(NULL::uuid, ARRAY[n]), array_fill(NULL::text, ARRAY[n])) a;
    END
    $fn$;`;
}
