import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SHARE_ADMIT_VISITS_LOOP } from './1763700000410-share-visit-batches.js';

/**
 * `share_admit_visits` judges a batch set-based when no rule of the share depends on who visits
 * (no per-visitor or per-account cap, no one-session rule; a total cap is fine): one upsert per
 * distinct visitor of the batch instead of one per visit, visit numbers from the batch's order.
 * Under load a batch holds many visits of few visitors, and the per-visit upsert was most of
 * PostgreSQL's work per view. Outcomes, numbers and counters are exactly those of the loop, which
 * stays for shares whose rules do depend on the visitor. Restated from its only definition
 * (ShareVisitBatches1763700000410); the signature and result are unchanged.
 */
export class SetBasedAdmission1763700001600 implements MigrationInterface {
  name = 'SetBasedAdmission1763700001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION share_admit_visits(p_share uuid, p_visitors text[], p_users uuid[], p_browsers text[])
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
        allowed integer;
        unique_nos integer[];
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

        -- No rule of this share depends on who visits (no per-visitor or per-account cap, no
        -- one-session rule): the batch is judged as a whole. The first visits up to the total cap
        -- are admitted in order, with one upsert per distinct visitor and account of the batch.
        IF s.per_visitor_max_visits IS NULL AND s.per_login_user_max_visits IS NULL AND NOT s.one_session THEN
          IF s.revoked_at IS NOT NULL THEN
            RETURN QUERY SELECT g, 'REVOKED'::text, 0, 0 FROM generate_series(1, n) g;
            RETURN;
          END IF;
          IF s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visits >= s.max_visits) THEN
            RETURN QUERY SELECT g, 'CONSUMED'::text, 0, 0 FROM generate_series(1, n) g;
            RETURN;
          END IF;
          IF s.expires_at IS NOT NULL AND s.expires_at <= now() THEN
            RETURN QUERY SELECT g, 'EXPIRED'::text, 0, 0 FROM generate_series(1, n) g;
            RETURN;
          END IF;
          allowed := CASE WHEN s.max_visits IS NULL THEN n ELSE least(n, s.max_visits - s.visits) END;
          IF allowed > 0 THEN
            -- A visitor is new when its row was inserted by this upsert (its visits equal the
            -- batch's count of it); its first visit in the batch is the one that raises the unique count.
            WITH batch AS (
              SELECT b.k, b.ord::integer AS ord FROM unnest(p_visitors[1:allowed]) WITH ORDINALITY AS b(k, ord)
            ), counted AS (
              SELECT k, count(*)::integer AS c, min(ord) AS first_ord FROM batch GROUP BY k
            ), upserted AS (
              INSERT INTO share_visitors AS v (share_id, visitor_key, visits)
              SELECT p_share, k, c FROM counted ORDER BY k
              ON CONFLICT (share_id, visitor_key) DO UPDATE SET visits = v.visits + excluded.visits
              RETURNING v.visitor_key, v.visits
            ), numbered AS (
              SELECT batch.ord, s.distinct_visitors
                + sum(CASE WHEN upserted.visits = counted.c AND batch.ord = counted.first_ord THEN 1 ELSE 0 END) OVER (ORDER BY batch.ord) AS un
              FROM batch JOIN counted ON counted.k = batch.k JOIN upserted ON upserted.visitor_key = batch.k
            )
            SELECT array_agg(un::integer ORDER BY ord), max(un)::integer INTO unique_nos, uniques FROM numbered;
            INSERT INTO share_user_visits AS uv (share_id, user_id, visits)
              SELECT p_share, u, count(*)::integer FROM unnest(p_users[1:allowed]) AS u WHERE u IS NOT NULL GROUP BY u ORDER BY u
              ON CONFLICT (share_id, user_id) DO UPDATE SET visits = uv.visits + excluded.visits;
            total := s.visits + allowed;
            UPDATE shares sh SET
              visit_count = total,
              unique_visit_count = uniques,
              consumed_at = CASE WHEN sh.max_visits IS NOT NULL AND total >= sh.max_visits THEN now() END
            WHERE sh.id = p_share;
            INSERT INTO share_visit_hours AS h (share_id, hour, visits) VALUES (p_share, date_trunc('hour', now()), allowed)
              ON CONFLICT (share_id, hour) DO UPDATE SET visits = h.visits + allowed;
            RETURN QUERY SELECT g, 'ADMITTED'::text, s.visits + g, unique_nos[g] FROM generate_series(1, allowed) g;
          END IF;
          RETURN QUERY SELECT g, 'CONSUMED'::text, 0, 0 FROM generate_series(greatest(allowed, 0) + 1, n) g;
          RETURN;
        END IF;

        -- Otherwise each visit is judged in turn: whether it may pass depends on the ones before it.
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
      $fn$;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(SHARE_ADMIT_VISITS_LOOP.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
}
