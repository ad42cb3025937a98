import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Administrators and the instance's own settings.
 *
 * `users.role` is `admin` for the first account of a fresh instance (ADMIN_EMAILS adds more at
 * run time, without a row change). The first account is decided by `instance_settings.founded`:
 * the statement creating the first account inserts the settings row as founded, and only the
 * account whose statement did so is the administrator; two registrations at once meet on the
 * row's key, the second finds it founded. An instance that already has accounts gets its row
 * here, founded: nobody is promoted by this migration, its operators name themselves in
 * ADMIN_EMAILS. A fresh instance has no row until its first account, so a backup restores into it.
 *
 * `users.disabled_at`: a disabled account cannot sign in, its tokens answer 401 and its share
 * links answer 410: `share_open_visits` admits no visit to them and adds `owner_disabled` to the
 * gate row it returns. The `share_gate` view is left as it is (other migrations extend it), so
 * the viewer's other reads of it join the owner's row themselves.
 *
 * `instance_settings` is at most one row: `registration` is null (or the row missing) until an
 * administrator chooses a mode, and ALLOW_REGISTRATION decides meanwhile. `invites` keeps only the digest of an invitation's
 * token; `used_at` is set once, by the registration that used it.
 */
export class Administrators1763700001000 implements MigrationInterface {
  name = 'Administrators1763700001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin'));
      ALTER TABLE users ADD COLUMN disabled_at timestamptz;
      CREATE INDEX users_created_order_idx ON users (created_at DESC, id DESC);

      CREATE TABLE instance_settings (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        founded boolean NOT NULL DEFAULT false,
        registration text CHECK (registration IN ('open', 'invite', 'closed')),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO instance_settings (id, founded) SELECT true, true WHERE EXISTS (SELECT 1 FROM users);

      CREATE TABLE invites (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        email text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        used_by uuid REFERENCES users(id) ON DELETE SET NULL
      );
      CREATE INDEX invites_created_order_idx ON invites (created_at DESC, id DESC);
      -- An account's events in the administrators' trail also include the administrator actions naming it.
      CREATE INDEX audit_events_admin_target_idx ON audit_events (target_id, created_at DESC, id DESC) WHERE actor_id IS NOT NULL;
      -- The administrators' trail filtered by action reads one index range, however rare the action.
      CREATE INDEX audit_events_action_idx ON audit_events (action, created_at DESC, id DESC);
    `);
    await queryRunner.query(SHARE_OPEN_VISITS(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(SHARE_OPEN_VISITS(false));
    await queryRunner.query(`
      DROP INDEX audit_events_action_idx;
      DROP INDEX audit_events_admin_target_idx;
      DROP TABLE invites;
      DROP TABLE instance_settings;
      DROP INDEX users_created_order_idx;
      ALTER TABLE users DROP COLUMN disabled_at, DROP COLUMN role;
    `);
  }
}

/**
 * The common view in one round trip (see 1763700000410), now also refusing to admit a visit to a
 * disabled owner's link (the gate's state policy answers it, and nothing is counted), and adding
 * `owner_disabled` to the gate row it returns. The owner's row is read by its key.
 */
function SHARE_OPEN_VISITS(ownerAware: boolean): string {
  return `
    CREATE OR REPLACE FUNCTION share_open_visits(p_token text, p_segment text, p_visitors text[])
    RETURNS TABLE (idx integer, outcome text, visit_no integer, unique_no integer, gate json)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      g share_gate;
      n integer := coalesce(array_length(p_visitors, 1), 0);
      v_owner_disabled boolean := false;
    BEGIN
      SELECT * INTO g FROM share_gate sg WHERE lower(sg.token) = lower(p_token);
      IF NOT FOUND OR (p_segment IS NOT NULL AND lower(g.segment) <> lower(p_segment)) THEN
        RETURN;
      END IF;
      ${
        ownerAware
          ? `v_owner_disabled := EXISTS (SELECT 1 FROM users u WHERE u.id = g.user_id AND u.disabled_at IS NOT NULL);
      RETURN QUERY SELECT 0, NULL::text, 0, 0, (to_jsonb(g) || jsonb_build_object('owner_disabled', v_owner_disabled))::json;`
          : 'RETURN QUERY SELECT 0, NULL::text, 0, 0, row_to_json(g);'
      }
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
