import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SHARE_GATE_COLUMNS, SHARE_GATE_FROM } from './1763700001200-notifications.js';

/**
 * Collections, agreements, and reading by document and by section.
 *
 * - A share names exactly one of a file (`file_id`, as before) or a folder (`folder_id`): a
 *   collection of the folder's documents, sub-folders included. Deleting the folder deletes its
 *   shares, as deleting a file does.
 * - `agreement_text` (Markdown) must be accepted before any content of the share leaves;
 *   `agreement_sha256` is derived by the database (a trigger), so an acceptance names exactly the text it
 *   accepted and a changed text asks every visitor again.
 * - `share_acceptances`: one row per visitor and agreement text (a parallel second acceptance of
 *   the same visitor finds the row and adds nothing).
 * - `share_document_reads`: which documents an admitted visit opened (a collection's documents,
 *   or a single share's one), with reading time, scroll depth and completion.
 * - `share_section_reads`: how long each section (an h1–h3 heading starts one) of a document was
 *   on screen during a visit. Both are keyed by the visit log's id but carry no foreign key to it:
 *   the visit log is written in batches after the page is sent, and a read may arrive first. The
 *   visit retention sweep deletes them by `at`.
 *
 * The gate row gains `folder_id`, `agreement_sha256` and `agreement_require_name`. For a
 * collection, `name` is the folder's, `trashed` the folder's state, `kind`/`version_id` null and
 * `scan_status` CLEAN (its documents are judged one by one). `share_open_visits`, the one round
 * trip of a link that asks nothing, leaves collections and links with an agreement to the gate:
 * both ask something of the visitor first. Restated from its current definition.
 */
export const COLLECTION_GATE_COLUMNS = `s.id, s.user_id, u.segment, s.token, s.file_id, coalesce(f.name, fo.name) AS name, f.kind,
          coalesce(f.deleted_at, fo.deleted_at) IS NOT NULL AS trashed,
          s.revoked_at IS NOT NULL AS revoked,
          (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
          (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
          s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
          s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
          s.burn_after_read_enabled,
          coalesce(pinned.id, clean.id, cur.id) AS version_id,
          CASE WHEN s.folder_id IS NOT NULL THEN 'CLEAN'
               WHEN pinned.id IS NOT NULL THEN pinned.scan_status
               ELSE coalesce(clean.scan_status, cur.scan_status) END AS scan_status,
          CASE WHEN s.notify = 'first' AND s.first_visit_notified_at IS NOT NULL THEN 'off' ELSE s.notify END AS notify,
          s.folder_id, s.agreement_sha256, s.agreement_require_name`;

export const COLLECTION_GATE_FROM = `FROM shares s
        JOIN users u ON u.id = s.user_id
        LEFT JOIN files f ON f.id = s.file_id
        LEFT JOIN folders fo ON fo.id = s.folder_id
        LEFT JOIN file_versions pinned ON pinned.id = s.locked_version_id
        LEFT JOIN file_versions cur ON cur.id = f.current_version_id
        LEFT JOIN LATERAL (
          SELECT v.id, v.scan_status FROM file_versions v
          WHERE v.file_id = f.id AND v.scan_status = 'CLEAN'
          ORDER BY v.version_no DESC LIMIT 1
        ) clean ON s.locked_version_id IS NULL AND cur.scan_status IS DISTINCT FROM 'INFECTED'`;

const FAST_PATH_REFUSALS = 'OR v_owner_disabled THEN';
const FAST_PATH_REFUSALS_WITH_COLLECTIONS =
  'OR v_owner_disabled OR g.folder_id IS NOT NULL OR g.agreement_sha256 IS NOT NULL THEN';

/** Rewrites share_open_visits from its current definition, replacing `from` by `to` (which must be there). */
function restateOpenVisits(from: string, to: string): string {
  return `
    DO $restate$
    DECLARE
      def text := pg_get_functiondef('share_open_visits(text, text, text[])'::regprocedure);
    BEGIN
      IF position(${literal(from)} IN def) = 0 THEN
        RAISE EXCEPTION 'share_open_visits does not hold the text this migration rewrites';
      END IF;
      EXECUTE replace(def, ${literal(from)}, ${literal(to)});
    END
    $restate$;`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export class CollectionsAgreements1763700001700 implements MigrationInterface {
  name = 'CollectionsAgreements1763700001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE shares
        ALTER COLUMN file_id DROP NOT NULL,
        ADD COLUMN folder_id uuid REFERENCES folders(id) ON DELETE CASCADE,
        ADD COLUMN agreement_text text CHECK (char_length(agreement_text) BETWEEN 1 AND 20000),
        ADD COLUMN agreement_require_name boolean NOT NULL DEFAULT false,
        ADD COLUMN agreement_sha256 text,
        ADD CONSTRAINT shares_one_target CHECK ((file_id IS NULL) <> (folder_id IS NULL)),
        ADD CONSTRAINT shares_collection_unpinned CHECK (folder_id IS NULL OR locked_version_id IS NULL);
      CREATE INDEX shares_folder_idx ON shares (folder_id) WHERE folder_id IS NOT NULL;
      -- A generated column cannot hash text (convert_to is not immutable); a trigger can, and no
      -- writer can set a digest that does not match the text.
      CREATE FUNCTION shares_agreement_digest() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.agreement_sha256 := CASE WHEN NEW.agreement_text IS NULL THEN NULL
          ELSE encode(sha256(convert_to(NEW.agreement_text, 'UTF8')), 'hex') END;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER shares_agreement_digest BEFORE INSERT OR UPDATE OF agreement_text, agreement_sha256 ON shares
        FOR EACH ROW EXECUTE FUNCTION shares_agreement_digest();

      CREATE OR REPLACE VIEW share_gate AS SELECT ${COLLECTION_GATE_COLUMNS} ${COLLECTION_GATE_FROM};

      CREATE TABLE share_acceptances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        visitor_id text NOT NULL,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        name text CHECK (char_length(name) BETWEEN 1 AND 100),
        email text,
        ip_prefix text NOT NULL,
        user_agent text NOT NULL DEFAULT '',
        agreement_sha256 text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX share_acceptances_once ON share_acceptances (share_id, visitor_id, agreement_sha256);
      CREATE INDEX share_acceptances_share_seq ON share_acceptances (share_id, seq DESC);
      CREATE INDEX share_acceptances_at ON share_acceptances (at);

      CREATE TABLE share_document_reads (
        visit_id uuid NOT NULL,
        file_id uuid NOT NULL,
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        duration_ms integer NOT NULL DEFAULT 0 CHECK (duration_ms >= 0),
        scroll_depth real NOT NULL DEFAULT 0 CHECK (scroll_depth BETWEEN 0 AND 1),
        completed boolean NOT NULL DEFAULT false,
        PRIMARY KEY (visit_id, file_id)
      );
      CREATE INDEX share_document_reads_share ON share_document_reads (share_id, file_id);
      CREATE INDEX share_document_reads_at ON share_document_reads (at);

      CREATE TABLE share_section_reads (
        visit_id uuid NOT NULL,
        file_id uuid NOT NULL,
        section smallint NOT NULL CHECK (section >= 0),
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        heading text NOT NULL,
        ms integer NOT NULL CHECK (ms >= 0),
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (visit_id, file_id, section)
      );
      CREATE INDEX share_section_reads_share ON share_section_reads (share_id, file_id, section);
      CREATE INDEX share_section_reads_at ON share_section_reads (at);
    `);
    await queryRunner.query(restateOpenVisits(FAST_PATH_REFUSALS, FAST_PATH_REFUSALS_WITH_COLLECTIONS));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(restateOpenVisits(FAST_PATH_REFUSALS_WITH_COLLECTIONS, FAST_PATH_REFUSALS));
    await queryRunner.query(`
      DROP TABLE IF EXISTS share_section_reads;
      DROP TABLE IF EXISTS share_document_reads;
      DROP TABLE IF EXISTS share_acceptances;
      DROP VIEW share_gate;
      DELETE FROM shares WHERE folder_id IS NOT NULL;
      DROP TRIGGER shares_agreement_digest ON shares;
      DROP FUNCTION shares_agreement_digest();
      ALTER TABLE shares
        DROP CONSTRAINT shares_collection_unpinned,
        DROP CONSTRAINT shares_one_target,
        DROP COLUMN agreement_sha256,
        DROP COLUMN agreement_require_name,
        DROP COLUMN agreement_text,
        DROP COLUMN folder_id,
        ALTER COLUMN file_id SET NOT NULL;
      DROP INDEX IF EXISTS shares_folder_idx;
      CREATE VIEW share_gate AS
        SELECT ${SHARE_GATE_COLUMNS},
          CASE WHEN s.notify = 'first' AND s.first_visit_notified_at IS NOT NULL THEN 'off' ELSE s.notify END AS notify
        ${SHARE_GATE_FROM};
    `);
  }
}
