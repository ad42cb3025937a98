import type { MigrationInterface, QueryRunner } from 'typeorm';
import { COLLECTION_GATE_COLUMNS, COLLECTION_GATE_FROM } from './1763700001700-collections-agreements.js';

/**
 * Every api process keeps the gate rows of the links it serves (viewer/gate/share-gate-cache.ts), so a
 * view skips the gate row's read and goes straight to its admission. The cache holds only what
 * these triggers announce the change of, on the change feed (channel
 * `sharedown_changes`, payload `shares:<owner's user id>`, see database/change-feed.ts), from the
 * database itself in the changing transaction, whichever code path (the api, a worker's scan, an
 * administrator, a sweep) makes the change:
 *
 * - `shares`: any change but the visit counters, which every admission writes (an admission that
 *   uses the link up or binds it to a session is announced);
 * - `files`, `folders`: any change (a rename, a move, the trash, a new current version);
 * - `file_versions`: any change but the cached rendering, which the first view writes.
 *
 * Account changes are announced already (`accounts:<user id>`, migration 1763700001300).
 *
 * The gate row gains `expires_at`: a row held in memory judges expiry by the clock at each use.
 */
const GATE_CACHE_COLUMNS = `${COLLECTION_GATE_COLUMNS}, s.expires_at`;

export class ShareGateChanges1763700001800 implements MigrationInterface {
  name = 'ShareGateChanges1763700001800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE VIEW share_gate AS SELECT ${GATE_CACHE_COLUMNS} ${COLLECTION_GATE_FROM};

      CREATE FUNCTION sharedown_notify_gate_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
        new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
        owner uuid;
      BEGIN
        -- The trigger's arguments: the columns whose changes no gate row shows.
        IF old_row IS NOT NULL AND new_row IS NOT NULL
           AND old_row - coalesce(TG_ARGV, '{}'::text[]) = new_row - coalesce(TG_ARGV, '{}'::text[]) THEN
          RETURN NULL;
        END IF;
        IF TG_TABLE_NAME = 'file_versions' THEN
          SELECT f.user_id INTO owner FROM files f WHERE f.id = (coalesce(new_row, old_row) ->> 'file_id')::uuid;
        ELSE
          owner := (coalesce(new_row, old_row) ->> 'user_id')::uuid;
        END IF;
        IF owner IS NOT NULL THEN
          PERFORM pg_notify('sharedown_changes', 'shares:' || owner);
        END IF;
        RETURN NULL;
      END
      $fn$;
      -- Only an admission changes the visit counters: those updates, one per batch of visits, skip
      -- the trigger without calling it, unless they used the link up or bound it to a session.
      CREATE TRIGGER shares_announce_gate_change AFTER UPDATE ON shares
        FOR EACH ROW WHEN (OLD.visit_count = NEW.visit_count OR OLD.consumed_at IS DISTINCT FROM NEW.consumed_at
                           OR OLD.session_owner IS DISTINCT FROM NEW.session_owner)
        EXECUTE FUNCTION sharedown_notify_gate_change('visit_count', 'unique_visit_count');
      CREATE TRIGGER shares_announce_gate_removal AFTER DELETE ON shares
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_gate_change();
      CREATE TRIGGER files_announce_gate_change AFTER UPDATE OR DELETE ON files
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_gate_change();
      CREATE TRIGGER folders_announce_gate_change AFTER UPDATE OR DELETE ON folders
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_gate_change();
      CREATE TRIGGER file_versions_announce_gate_change AFTER INSERT OR UPDATE OR DELETE ON file_versions
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_gate_change('rendered_html');
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER IF EXISTS file_versions_announce_gate_change ON file_versions;
      DROP TRIGGER IF EXISTS folders_announce_gate_change ON folders;
      DROP TRIGGER IF EXISTS files_announce_gate_change ON files;
      DROP TRIGGER IF EXISTS shares_announce_gate_removal ON shares;
      DROP TRIGGER IF EXISTS shares_announce_gate_change ON shares;
      DROP FUNCTION IF EXISTS sharedown_notify_gate_change();
      DROP VIEW share_gate;
      CREATE VIEW share_gate AS SELECT ${COLLECTION_GATE_COLUMNS} ${COLLECTION_GATE_FROM};
    `);
  }
}
