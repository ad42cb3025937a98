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

const LOOK_UP_THEN_WRITE = `            -- The share's row lock (taken above) serializes every write of its visitor rows, so a
            -- visitor with a row now is not new. Known visitors add to their counts; new ones are
            -- inserted, and the first visit of each raises the unique count, in the batch's order.
            -- A batch of known visitors only (a returning reader) needs no numbering at all.
            SELECT coalesce(array_agg(v.visitor_key), '{}') INTO known FROM share_visitors v
              WHERE v.share_id = p_share AND v.visitor_key = ANY (p_visitors[1:allowed]);
            IF cardinality(known) > 0 THEN
              UPDATE share_visitors v SET visits = v.visits + b.c
                FROM (SELECT k, count(*)::integer AS c FROM unnest(p_visitors[1:allowed]) AS k WHERE k = ANY (known) GROUP BY k) b
                WHERE v.share_id = p_share AND v.visitor_key = b.k;
            END IF;
            IF p_visitors[1:allowed] <@ known THEN
              unique_nos := array_fill(uniques, ARRAY[allowed]);
            ELSE
              WITH fresh AS (
                SELECT b.k, count(*)::integer AS c, min(b.ord)::integer AS first_ord
                  FROM unnest(p_visitors[1:allowed]) WITH ORDINALITY AS b(k, ord) WHERE NOT b.k = ANY (known) GROUP BY b.k
              ), inserted AS (
                INSERT INTO share_visitors (share_id, visitor_key, visits) SELECT p_share, k, c FROM fresh ORDER BY k
              )
              SELECT array_agg(first_ord ORDER BY first_ord) INTO firsts FROM fresh;
              unique_nos := array_fill(uniques, ARRAY[allowed]);
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
const DECLARED_WITH_LOOKUP = `${DECLARED}        known text[];\n        firsts integer[];\n        next_first integer;\n        pos integer;\n`;

/**
 * `share_admit_visits`' set-based path (a share whose rules do not depend on who visits) counted
 * its visitors with one upsert and numbered its visits by joining what the upsert returned back
 * to the batch: two hash joins, a grouping and a window over a sort, each node started for every
 * call. Measured on its own (PostgreSQL backend CPU per call of 21 visits): about 40 % of the call
 * was that statement. The visitors are now looked up first (one index scan), known ones updated and
 * new ones inserted, and the visits numbered by a loop over the new visitors' first positions;
 * a batch of known visitors keeps the unique count without numbering anything.
 *
 * Outcomes, visit numbers, unique numbers and counters are unchanged (share-admission.pg.spec.ts
 * compares them with the per-visit loop). Restated from its current definition.
 */
export class KnownVisitorAdmission1763700002100 implements MigrationInterface {
  name = 'KnownVisitorAdmission1763700002100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, DECLARED, DECLARED_WITH_LOOKUP);
    await restateAdmission(queryRunner, UPSERT_THEN_NUMBER, LOOK_UP_THEN_WRITE);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, LOOK_UP_THEN_WRITE, UPSERT_THEN_NUMBER);
    await restateAdmission(queryRunner, DECLARED_WITH_LOOKUP, DECLARED);
  }
}
