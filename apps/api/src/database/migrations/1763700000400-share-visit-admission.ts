import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visit admission as one server-side function, so a view is one round trip and the share's row
 * lock is held only while PostgreSQL runs the function and commits, never across client round
 * trips. Every visit to a share takes that lock first (FOR UPDATE: READ COMMITTED re-reads the
 * newest row after the wait), which serializes concurrent visits and makes every cap exact.
 * Outcomes: ADMITTED, NOT_FOUND, REVOKED, EXPIRED, CONSUMED, SESSION_TAKEN, VISITOR_LIMIT, USER_LIMIT.
 */
export class ShareVisitAdmission1763700000400 implements MigrationInterface {
  name = 'ShareVisitAdmission1763700000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION share_admit_visit(p_share uuid, p_visitor text, p_user uuid, p_browser text)
      RETURNS TABLE (outcome text, visit_count integer, unique_visit_count integer, consumed boolean)
      LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        s record;
        seen integer;
        new_visitor boolean;
      BEGIN
        SELECT sh.revoked_at, sh.consumed_at, sh.expires_at, sh.max_visits, sh.per_visitor_max_visits,
               sh.per_login_user_max_visits, sh.one_session, sh.session_owner, sh.visit_count AS visits
          INTO s FROM shares sh WHERE sh.id = p_share FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'NOT_FOUND'::text, 0, 0, false; RETURN;
        END IF;
        IF s.revoked_at IS NOT NULL THEN
          RETURN QUERY SELECT 'REVOKED'::text, 0, 0, false; RETURN;
        END IF;
        IF s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visits >= s.max_visits) THEN
          RETURN QUERY SELECT 'CONSUMED'::text, 0, 0, true; RETURN;
        END IF;
        IF s.expires_at IS NOT NULL AND s.expires_at <= now() THEN
          RETURN QUERY SELECT 'EXPIRED'::text, 0, 0, false; RETURN;
        END IF;
        IF s.one_session AND s.session_owner IS NOT NULL AND s.session_owner IS DISTINCT FROM p_browser THEN
          RETURN QUERY SELECT 'SESSION_TAKEN'::text, 0, 0, false; RETURN;
        END IF;
        IF s.per_visitor_max_visits IS NOT NULL THEN
          SELECT v.visits INTO seen FROM share_visitors v WHERE v.share_id = p_share AND v.visitor_key = p_visitor;
          IF coalesce(seen, 0) >= s.per_visitor_max_visits THEN
            RETURN QUERY SELECT 'VISITOR_LIMIT'::text, 0, 0, false; RETURN;
          END IF;
        END IF;
        IF s.per_login_user_max_visits IS NOT NULL THEN
          IF p_user IS NULL THEN
            RETURN QUERY SELECT 'USER_LIMIT'::text, 0, 0, false; RETURN;
          END IF;
          SELECT uv.visits INTO seen FROM share_user_visits uv WHERE uv.share_id = p_share AND uv.user_id = p_user;
          IF coalesce(seen, 0) >= s.per_login_user_max_visits THEN
            RETURN QUERY SELECT 'USER_LIMIT'::text, 0, 0, false; RETURN;
          END IF;
        END IF;

        INSERT INTO share_visitors AS v (share_id, visitor_key, visits) VALUES (p_share, p_visitor, 1)
          ON CONFLICT (share_id, visitor_key) DO UPDATE SET visits = v.visits + 1
          RETURNING v.visits = 1 INTO new_visitor;
        IF p_user IS NOT NULL THEN
          INSERT INTO share_user_visits AS uv (share_id, user_id, visits) VALUES (p_share, p_user, 1)
            ON CONFLICT (share_id, user_id) DO UPDATE SET visits = uv.visits + 1;
        END IF;
        INSERT INTO share_visit_hours AS h (share_id, hour, visits) VALUES (p_share, date_trunc('hour', now()), 1)
          ON CONFLICT (share_id, hour) DO UPDATE SET visits = h.visits + 1;

        RETURN QUERY
          UPDATE shares sh SET
            visit_count = sh.visit_count + 1,
            unique_visit_count = sh.unique_visit_count + CASE WHEN new_visitor THEN 1 ELSE 0 END,
            consumed_at = CASE WHEN sh.max_visits IS NOT NULL AND sh.visit_count + 1 >= sh.max_visits THEN now() END,
            session_owner = CASE WHEN sh.one_session THEN coalesce(sh.session_owner, p_browser) ELSE sh.session_owner END
          WHERE sh.id = p_share
          RETURNING 'ADMITTED'::text, sh.visit_count, sh.unique_visit_count, sh.consumed_at IS NOT NULL;
      END
      $fn$;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION IF EXISTS share_admit_visit(uuid, text, uuid, text)`);
  }
}
