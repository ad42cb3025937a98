import type { MigrationInterface, QueryRunner } from 'typeorm';
import { restateAdmission } from './1763700001900-visit-log-writes.js';

/** The set-based path's visitor upsert and numbering, exactly as migration 1763700001600 wrote them. */
const UPSERT_THEN_NUMBER = `            -- A visitor is new when its row was inserted by this upsert (its visits equal the
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
`;

const UPSERT_THEN_NUMBER_NEW = `            -- A visitor is new when its row was inserted by this upsert (its visits equal the
            -- batch's count of it); its first visit in the batch is the one that raises the unique
            -- count. A batch without new visitors (returning readers) numbers nothing.
            WITH counted AS (
              SELECT b.k, count(*)::integer AS c, min(b.ord)::integer AS first_ord
                FROM unnest(p_visitors[1:allowed]) WITH ORDINALITY AS b(k, ord) GROUP BY b.k
            ), upserted AS (
              INSERT INTO share_visitors AS v (share_id, visitor_key, visits)
              SELECT p_share, k, c FROM counted ORDER BY k
              ON CONFLICT (share_id, visitor_key) DO UPDATE SET visits = v.visits + excluded.visits
              RETURNING v.visitor_key, v.visits
            )
            SELECT array_agg(counted.first_ord ORDER BY counted.first_ord) FILTER (WHERE upserted.visits = counted.c)
              INTO firsts FROM counted JOIN upserted ON upserted.visitor_key = counted.k;
            unique_nos := array_fill(uniques, ARRAY[allowed]);
            IF firsts IS NOT NULL THEN
              next_first := 1;
              FOR pos IN 1..allowed LOOP
                IF next_first <= cardinality(firsts) AND firsts[next_first] = pos THEN
                  uniques := uniques + 1;
                  next_first := next_first + 1;
                END IF;
                unique_nos[pos] := uniques;
              END LOOP;
            END IF;
`;

const DECLARED = '        unique_nos integer[];\n';
const DECLARED_WITH_LOOP = `${DECLARED}        firsts integer[];\n        next_first integer;\n        pos integer;\n`;

/**
 * `share_admit_visits`' set-based path (a share whose rules do not depend on who visits) counted
 * its visitors with one upsert and numbered every visit of the batch in SQL: the batch joined to
 * its counts and to the upsert's rows, then a running sum over a sort. Measured on its own
 * (PostgreSQL backend CPU per call of 21 visits) that statement was about 40 % of a call. Now the
 * statement joins the upsert's rows to the visitors' counts only, to learn the new visitors' first
 * positions, and a loop over those positions numbers the visits; a batch of returning visitors
 * (no new one) numbers nothing.
 *
 * The visitor rows are still written by the upsert, found through the primary key whatever the
 * table's size when the session planned it (the function runs with generic plans): a lookup or a
 * join of share_visitors planned while the table was small could be a sequential scan for good.
 *
 * Outcomes, visit numbers, unique numbers and counters are unchanged (share-admission.pg.spec.ts
 * compares them with the per-visit loop). Restated from its current definition.
 */
export class NewVisitorNumbering1763700002100 implements MigrationInterface {
  name = 'NewVisitorNumbering1763700002100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, DECLARED, DECLARED_WITH_LOOP);
    await restateAdmission(queryRunner, UPSERT_THEN_NUMBER, UPSERT_THEN_NUMBER_NEW);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, UPSERT_THEN_NUMBER_NEW, UPSERT_THEN_NUMBER);
    await restateAdmission(queryRunner, DECLARED_WITH_LOOP, DECLARED);
  }
}
