import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole schema of the first release: accounts, files, shares, webhooks. */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        segment text NOT NULL,
        password_hash text NOT NULL,
        quota_bytes bigint NOT NULL,
        used_bytes bigint NOT NULL DEFAULT 0 CHECK (used_bytes >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email));
      CREATE UNIQUE INDEX users_segment_key ON users (lower(segment));

      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user_idx ON sessions (user_id);


      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        rate_limit_per_minute integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);

      CREATE TABLE rate_buckets (
        key text PRIMARY KEY,
        tokens double precision NOT NULL,
        last_allowed boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      CREATE TABLE folders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        parent_id uuid REFERENCES folders(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      );
      CREATE UNIQUE INDEX folders_live_name_key ON folders (user_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), name) WHERE deleted_at IS NULL;

      CREATE TABLE files (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        folder_id uuid REFERENCES folders(id) ON DELETE SET NULL,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('HTML', 'MARKDOWN', 'TEXT')),
        current_version_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      );
      CREATE UNIQUE INDEX files_live_name_key ON files (user_id, coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), name) WHERE deleted_at IS NULL;
      CREATE INDEX files_user_folder_idx ON files (user_id, folder_id);

      CREATE TABLE file_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        file_id uuid NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        version_no integer NOT NULL,
        content text NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        scan_status text NOT NULL DEFAULT 'PENDING' CHECK (scan_status IN ('PENDING', 'CLEAN', 'INFECTED', 'SCAN_ERROR')),
        scan_result text,
        scan_attempts integer NOT NULL DEFAULT 0,
        scanned_at timestamptz,
        rendered_html text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (file_id, version_no)
      );
      CREATE INDEX file_versions_unfinished_idx ON file_versions (scan_status) WHERE scan_status IN ('PENDING', 'SCAN_ERROR');
      ALTER TABLE files ADD CONSTRAINT files_current_version_fk FOREIGN KEY (current_version_id) REFERENCES file_versions(id) DEFERRABLE INITIALLY DEFERRED;

      CREATE TABLE shares (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        file_id uuid NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        token text NOT NULL,
        slug text,
        password_hash text,
        expires_at timestamptz,
        max_visits integer,
        per_visitor_max_visits integer,
        per_login_user_max_visits integer,
        one_time boolean NOT NULL DEFAULT false,
        require_login boolean NOT NULL DEFAULT false,
        watermark_enabled boolean NOT NULL DEFAULT false,
        watermark_text text,
        copy_protection_enabled boolean NOT NULL DEFAULT false,
        burn_after_read_enabled boolean NOT NULL DEFAULT false,
        locked_version_id uuid REFERENCES file_versions(id) ON DELETE SET NULL,
        one_session boolean NOT NULL DEFAULT false,
        session_owner text,
        email_allowlist text[],
        visit_count integer NOT NULL DEFAULT 0,
        unique_visit_count integer NOT NULL DEFAULT 0,
        revoked_at timestamptz,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX shares_token_key ON shares (lower(token));
      CREATE INDEX shares_file_idx ON shares (file_id);
      CREATE INDEX shares_user_idx ON shares (user_id, created_at DESC);

      CREATE TABLE share_visitors (
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        visitor_key text NOT NULL,
        visits integer NOT NULL DEFAULT 0,
        PRIMARY KEY (share_id, visitor_key)
      );

      CREATE TABLE share_user_visits (
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        visits integer NOT NULL DEFAULT 0,
        PRIMARY KEY (share_id, user_id)
      );

      CREATE TABLE share_visit_hours (
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        hour timestamptz NOT NULL,
        visits integer NOT NULL DEFAULT 0,
        PRIMARY KEY (share_id, hour)
      );

      CREATE TABLE share_reports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        share_id uuid NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
        reason text NOT NULL,
        ip_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url text NOT NULL,
        events text[] NOT NULL,
        secret text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhooks_user_idx ON webhooks (user_id);

      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        event text NOT NULL,
        status text NOT NULL,
        response_code integer,
        attempts integer NOT NULL DEFAULT 1,
        delivered_at timestamptz NOT NULL DEFAULT now(),
        duration_ms integer NOT NULL DEFAULT 0,
        response_body text,
        UNIQUE (webhook_id, event_id)
      );
      CREATE INDEX webhook_deliveries_recent_idx ON webhook_deliveries (webhook_id, delivered_at DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE IF EXISTS webhook_deliveries, webhooks, share_reports, share_visit_hours, share_user_visits,
        share_visitors, shares, file_versions, files, folders, rate_buckets, api_tokens,
        sessions, users CASCADE;
    `);
  }
}
