import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Document requests: a link (`/r/<segment>/<token>`) through which anyone who has it uploads
 * documents into one of the owner's folders, each scanned and then reviewed by the owner.
 *
 * - `document_requests.upload_count` counts the slots taken: an upload reserves one by raising it
 *   under the row's lock, in the transaction that writes the file, so a failed upload (quota,
 *   name, a rolled-back transaction) never keeps a slot and parallel uploads over two replicas
 *   never take more than `max_uploads`. A quarantined upload gives its slot back: the trigger on
 *   `file_versions` releases it in the transaction that settles the scan, whichever code path
 *   settles it.
 * - `request_uploads`: one row per accepted upload, with the uploader's words, the owner's review
 *   (`PENDING` until accepted or rejected) and the secret of the uploader's receipt (stored as its
 *   SHA-256). `settled_at` is set once, when the scan of the upload settles, so the owner's
 *   notification and the webhook event fire once, whichever worker settles it.
 * - Notifications gain the kind `request_upload`.
 */
export class DocumentRequests1763700002400 implements MigrationInterface {
  name = 'DocumentRequests1763700002400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE document_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token text NOT NULL UNIQUE,
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
        instructions text NOT NULL DEFAULT '' CHECK (char_length(instructions) <= 5000),
        folder_id uuid NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        max_uploads integer NOT NULL DEFAULT 10 CHECK (max_uploads BETWEEN 1 AND 1000),
        max_bytes integer NOT NULL CHECK (max_bytes >= 1),
        expires_at timestamptz,
        password_hash text,
        email_allowlist text[],
        notify text NOT NULL DEFAULT 'every' CHECK (notify IN ('off', 'first', 'every', 'daily')),
        upload_count integer NOT NULL DEFAULT 0 CHECK (upload_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz
      );
      CREATE INDEX document_requests_user_seq ON document_requests (user_id, seq DESC);
      CREATE INDEX document_requests_folder ON document_requests (folder_id);

      CREATE TABLE request_uploads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        request_id uuid NOT NULL REFERENCES document_requests(id) ON DELETE CASCADE,
        file_id uuid UNIQUE REFERENCES files(id) ON DELETE SET NULL,
        file_name text NOT NULL,
        size_bytes integer NOT NULL,
        uploader_name text NOT NULL CHECK (char_length(uploader_name) BETWEEN 1 AND 100),
        uploader_email text CHECK (char_length(uploader_email) <= 254),
        message text NOT NULL DEFAULT '' CHECK (char_length(message) <= 2000),
        review text NOT NULL DEFAULT 'PENDING' CHECK (review IN ('PENDING', 'ACCEPTED', 'REJECTED')),
        receipt_hash text NOT NULL UNIQUE,
        ip_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        slot_released boolean NOT NULL DEFAULT false
      );
      CREATE INDEX request_uploads_request_seq ON request_uploads (request_id, seq DESC);

      -- A quarantined upload gives its slot back, in the transaction that settles its scan.
      CREATE FUNCTION request_uploads_release_infected() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        released uuid;
      BEGIN
        UPDATE request_uploads SET slot_released = true
          WHERE file_id = NEW.file_id AND NOT slot_released
          RETURNING request_id INTO released;
        IF released IS NOT NULL THEN
          UPDATE document_requests SET upload_count = upload_count - 1 WHERE id = released AND upload_count > 0;
        END IF;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER request_uploads_release_infected AFTER UPDATE OF scan_status ON file_versions
        FOR EACH ROW WHEN (NEW.scan_status = 'INFECTED' AND OLD.scan_status IS DISTINCT FROM 'INFECTED')
        EXECUTE FUNCTION request_uploads_release_infected();

      ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
      ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
        CHECK (kind IN ('first_visit', 'visit', 'daily_digest', 'request_upload'));
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DELETE FROM notifications WHERE kind = 'request_upload';
      ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
      ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('first_visit', 'visit', 'daily_digest'));
      DROP TRIGGER IF EXISTS request_uploads_release_infected ON file_versions;
      DROP FUNCTION IF EXISTS request_uploads_release_infected();
      DROP TABLE IF EXISTS request_uploads;
      DROP TABLE IF EXISTS document_requests;
    `);
  }
}
