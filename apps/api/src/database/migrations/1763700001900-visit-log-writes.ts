import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The visit log's insert is most of what a view costs PostgreSQL after its admission, and most of
 * that was per row: the foreign key's check (one SPI query and row lock on the share per logged
 * visit) and the `ON CONFLICT (id)` probe of the primary key. Neither is needed per row:
 *
 * - the insert locks each share of its batch once (`FOR KEY SHARE`, as the foreign key's check did
 *   per row) and logs only the visits of shares it found, so no row names a share that is gone;
 * - deleting shares deletes their visits in the same statement (a statement trigger over the
 *   deleted rows, as `ON DELETE CASCADE` did): a delete that meets a batch's lock waits for the
 *   batch to commit, then finds its rows; a batch that meets a delete's lock finds the share gone;
 * - visit ids are minted by the api (random UUIDs) and a batch is never sent twice.
 *
 * An admission locks its share `FOR NO KEY UPDATE` (it never changes the key), which a batch's
 * `FOR KEY SHARE` does not wait for, nor make wait. Restated from its current definition, the
 * lock clause the only change.
 */
export class VisitLogWrites1763700001900 implements MigrationInterface {
  name = 'VisitLogWrites1763700001900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE share_visit_log DROP CONSTRAINT share_visit_log_share_id_fkey;
      CREATE FUNCTION sharedown_forget_share_visits() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        DELETE FROM share_visit_log WHERE share_id IN (SELECT id FROM gone);
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER shares_forget_visits AFTER DELETE ON shares
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION sharedown_forget_share_visits();
    `);
    await restateAdmission(queryRunner, 'FOR UPDATE;', 'FOR NO KEY UPDATE;');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await restateAdmission(queryRunner, 'FOR NO KEY UPDATE;', 'FOR UPDATE;');
    await queryRunner.query(`
      DROP TRIGGER shares_forget_visits ON shares;
      DROP FUNCTION sharedown_forget_share_visits();
      DELETE FROM share_visit_log l WHERE NOT EXISTS (SELECT 1 FROM shares s WHERE s.id = l.share_id);
      ALTER TABLE share_visit_log ADD CONSTRAINT share_visit_log_share_id_fkey
        FOREIGN KEY (share_id) REFERENCES shares(id) ON DELETE CASCADE;
    `);
  }
}

/** Restates `share_admit_visits` from its current definition with `from` replaced by `to` (found exactly once). */
export async function restateAdmission(queryRunner: QueryRunner, from: string, to: string): Promise<void> {
  const [{ definition }] = (await queryRunner.query(
    `SELECT pg_get_functiondef('share_admit_visits(uuid, text[], uuid[], text[])'::regprocedure) AS definition`,
  )) as { definition: string }[];
  const parts = definition.split(from);
  if (parts.length !== 2) throw new Error(`share_admit_visits: expected its text once, found it ${parts.length - 1} times`);
  await queryRunner.query(parts.join(to));
}
