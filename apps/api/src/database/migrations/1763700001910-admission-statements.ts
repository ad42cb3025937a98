import type { MigrationInterface, QueryRunner } from 'typeorm';
import { restateAdmission } from './1763700001900-visit-log-writes.js';

/** The account upsert of `share_admit_visits`' set-based path, exactly as migration 1763700001600 wrote it. */
const ACCOUNT_UPSERT = `            INSERT INTO share_user_visits AS uv (share_id, user_id, visits)
              SELECT p_share, u, count(*)::integer FROM unnest(p_users[1:allowed]) AS u WHERE u IS NOT NULL GROUP BY u ORDER BY u
              ON CONFLICT (share_id, user_id) DO UPDATE SET visits = uv.visits + excluded.visits;`;

/** The same upsert, run only when a visit of the batch was signed in (most views are anonymous). */
const GUARDED_ACCOUNT_UPSERT = `            IF cardinality(array_remove(p_users[1:allowed], NULL)) > 0 THEN
${ACCOUNT_UPSERT}
            END IF;`;

/**
 * `share_admit_visits` runs once per batch of visits on every view's path; what it costs PostgreSQL
 * beside its rows is per statement: planning, starting the executor, a round of SPI.
 *
 * - Its statements look rows up by primary and unique keys only, so one plan per session serves
 *   every call: `plan_cache_mode = force_generic_plan` stops PL/pgSQL from planning them again
 *   for each call's values (custom plans, ~13 % of a call's CPU in `pg_plan_query`).
 * - The account upsert of the set-based path runs only when a visit of the batch was signed in.
 *
 * Restated from its current definition; outcomes, numbers and counters are unchanged.
 */
export class AdmissionStatements1763700001910 implements MigrationInterface {
  name = 'AdmissionStatements1763700001910';

  async up(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, ACCOUNT_UPSERT, GUARDED_ACCOUNT_UPSERT);
    await queryRunner.query(
      'ALTER FUNCTION share_admit_visits(uuid, text[], uuid[], text[]) SET plan_cache_mode = force_generic_plan',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER FUNCTION share_admit_visits(uuid, text[], uuid[], text[]) RESET plan_cache_mode');
    await restateAdmission(queryRunner, GUARDED_ACCOUNT_UPSERT, ACCOUNT_UPSERT);
  }
}
