import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every view writes one visit log row, and each B-tree index of the log costs that row an index
 * insert (measured: 2-2.5 µs of PostgreSQL CPU per index and row; a random primary key more).
 * Two of the four indexes were not worth it:
 *
 * - `(share_id, at DESC, id DESC)` duplicated `(share_id, automated, at DESC, id DESC)` for the
 *   reads that take both kinds of visit: those now read the human and the automated range of the
 *   remaining index and merge them (shares/analytics/share-visit-log.repository.ts, share-analytics.repository.ts);
 * - the purge's `(at)` becomes a BRIN index: rows arrive in time order, so block ranges summarise
 *   `at` well, and a BRIN index costs an insert nothing until its range is summarised.
 *
 * Visit ids are now UUIDv7 (time-ordered), so the primary key grows at its right edge instead of
 * at a random leaf; rows written before keep their random ids.
 */
export class VisitLogIndexes1763700002000 implements MigrationInterface {
  name = 'VisitLogIndexes1763700002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX share_visit_log_share_at;
      DROP INDEX share_visit_log_at;
      CREATE INDEX share_visit_log_at ON share_visit_log USING brin (at) WITH (autosummarize = on);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX share_visit_log_at;
      CREATE INDEX share_visit_log_at ON share_visit_log (at);
      CREATE INDEX share_visit_log_share_at ON share_visit_log (share_id, at DESC, id DESC);
    `);
  }
}
