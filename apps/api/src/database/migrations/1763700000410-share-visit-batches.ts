import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The function as this migration defines it; a later one that replaces it restores it from here. */
export const SHARE_ADMIT_VISITS_LOOP = `
      CREATE FUNCTION share_admit_visits(p_share uuid, p_visitors text[], p_users uuid[], p_browsers text[])
      RETURNS TABLE (idx integer, outcome text, visit_no integer, unique_no integer)
      LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        s record;
        n integer := coalesce(array_length(p_visitors, 1), 0);
        i integer;
        seen integer;
        fresh boolean;
        total integer;
        uniques integer;
        owner text;
        admitted integer := 0;
      BEGIN
        SELECT sh.revoked_at, sh.consumed_at, sh.expires_at, sh.max_visits, sh.per_visitor_max_visits,
               sh.per_login_user_max_visits, sh.one_session, sh.session_owner, sh.visit_count AS visits,
               sh.unique_visit_count AS distinct_visitors
          INTO s FROM shares sh WHERE sh.id = p_share FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT g, 'NOT_FOUND'::text, 0, 0 FROM generate_series(1, n) g;
          RETURN;
        END IF;
        IF s.max_visits IS NULL AND s.per_visitor_max_visits IS NULL AND s.per_login_user_max_visits IS NULL
           AND NOT s.one_session THEN
          PERFORM set_config('synchronous_commit', 'off', true);
        END IF;
        total := s.visits;
        uniques := s.distinct_visitors;
        owner := s.session_owner;

        FOR i IN 1..n LOOP
          idx := i;
          visit_no := 0;
          unique_no := 0;
          IF s.revoked_at IS NOT NULL THEN
            outcome := 'REVOKED';
          ELSIF s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND total >= s.max_visits) THEN
            outcome := 'CONSUMED';
          ELSIF s.expires_at IS NOT NULL AND s.expires_at <= now() THEN
            outcome := 'EXPIRED';
          ELSIF s.one_session AND owner IS NOT NULL AND owner IS DISTINCT FROM p_browsers[i] THEN
            outcome := 'SESSION_TAKEN';
          ELSE
            outcome := NULL;
            IF s.per_visitor_max_visits IS NOT NULL THEN
              SELECT v.visits INTO seen FROM share_visitors v WHERE v.share_id = p_share AND v.visitor_key = p_visitors[i];
              IF coalesce(seen, 0) >= s.per_visitor_max_visits THEN
                outcome := 'VISITOR_LIMIT';
              END IF;
            END IF;
            IF outcome IS NULL AND s.per_login_user_max_visits IS NOT NULL THEN
              IF p_users[i] IS NULL THEN
                outcome := 'USER_LIMIT';
              ELSE
                SELECT uv.visits INTO seen FROM share_user_visits uv WHERE uv.share_id = p_share AND uv.user_id = p_users[i];
                IF coalesce(seen, 0) >= s.per_login_user_max_visits THEN
                  outcome := 'USER_LIMIT';
                END IF;
              END IF;
            END IF;
            IF outcome IS NULL THEN
              INSERT INTO share_visitors AS v (share_id, visitor_key, visits) VALUES (p_share, p_visitors[i], 1)
                ON CONFLICT (share_id, visitor_key) DO UPDATE SET visits = v.visits + 1
                RETURNING v.visits = 1 INTO fresh;
              IF p_users[i] IS NOT NULL THEN
                INSERT INTO share_user_visits AS uv (share_id, user_id, visits) VALUES (p_share, p_users[i], 1)
                  ON CONFLICT (share_id, user_id) DO UPDATE SET visits = uv.visits + 1;
              END IF;
              total := total + 1;
              IF fresh THEN
                uniques := uniques + 1;
              END IF;
              IF s.one_session AND owner IS NULL THEN
                owner := p_browsers[i];
              END IF;
              admitted := admitted + 1;
              outcome := 'ADMITTED';
              visit_no := total;
              unique_no := uniques;
            END IF;
          END IF;
          RETURN NEXT;
        END LOOP;

        IF admitted > 0 THEN
          UPDATE shares sh SET
            visit_count = total,
            unique_visit_count = uniques,
            consumed_at = CASE WHEN sh.max_visits IS NOT NULL AND total >= sh.max_visits THEN now() END,
            session_owner = owner
          WHERE sh.id = p_share;
          INSERT INTO share_visit_hours AS h (share_id, hour, visits) VALUES (p_share, date_trunc('hour', now()), admitted)
            ON CONFLICT (share_id, hour) DO UPDATE SET visits = h.visits + admitted;
        END IF;
      END
      $fn$;`;

/**
 * Admission of several visits to one share in one call, replacing `share_admit_visit`.
 *
 * Every visit to a share is serialized by the share's row lock, so under load visits queue on that
 * lock and each hand-over costs a process wake-up. An api process therefore sends the visits that
 * arrive while its previous call for the same share is running as one batch: one lock, one update
 * of the counters, one commit for all of them. Inside the batch the visits are judged one after
 * another by exactly the rules of a single visit (state, one-session, per-visitor and per-login
 * caps, total cap), so every cap stays exact and every admitted visit gets its own visit number.
 *
 * Uncapped shares (no cap of any kind, no one-session rule) commit without waiting for the WAL
 * flush: their counters are statistics, not a gate. Any cap keeps the synchronous commit, so an
 * admission survives a crash.
 *
 * Result: one row per visit, in order: idx (1-based), outcome (ADMITTED, NOT_FOUND, REVOKED,
 * EXPIRED, CONSUMED, SESSION_TAKEN, VISITOR_LIMIT, USER_LIMIT), and for an admitted visit its
 * visit number and the unique-visitor count after it.
 *
 * `share_gate` is what the viewer's gate reads about a share (one row: share, owner segment, file,
 * the version it would serve). `share_open_visits` is the common view in one round trip: it reads
 * the gate row by token (and owner segment, when the link has one) and, only when the share needs
 * nothing from the visitor (no password, sign-in, reveal step or one-session rule; CLEAN, not
 * gone), admits the visits at once. Row idx 0 carries the gate as JSON; rows 1.. the admissions.
 * No rows: no such link.
 */
export class ShareVisitBatches1763700000410 implements MigrationInterface {
  name = 'ShareVisitBatches1763700000410';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
${SHARE_ADMIT_VISITS_LOOP}
      DROP FUNCTION share_admit_visit(uuid, text, uuid, text);

      CREATE VIEW share_gate AS
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

      CREATE FUNCTION share_open_visits(p_token text, p_segment text, p_visitors text[])
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
           OR g.has_password OR g.require_login OR g.one_time OR g.burn_after_read_enabled OR g.one_session THEN
          RETURN;
        END IF;
        RETURN QUERY
          SELECT a.idx, a.outcome, a.visit_no, a.unique_no, NULL::json
          FROM share_admit_visits(g.id, p_visitors, array_fill(NULL::uuid, ARRAY[n]), array_fill(NULL::text, ARRAY[n])) a;
      END
      $fn$;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP FUNCTION IF EXISTS share_open_visits(text, text, text[]);
      DROP VIEW IF EXISTS share_gate;
      DROP FUNCTION IF EXISTS share_admit_visits(uuid, text[], uuid[], text[]);
    `);
    // The single-visit function comes back from its own migration's text.
    const { ShareVisitAdmission1763700000400 } = await import('./1763700000400-share-visit-admission.js');
    await new ShareVisitAdmission1763700000400().up(queryRunner);
  }
}
