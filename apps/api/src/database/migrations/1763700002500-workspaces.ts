import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workspaces: who owns what.
 *
 * Every object (files, folders, shares, requests, webhooks, tokens, notifications, activity, the
 * quota) already belongs to an owner row of `users`, by its `user_id`. A workspace IS such an
 * owner row: an account's personal workspace is the account's own row (so the upgrade moves
 * nothing and keeps every id, link, token and count), and a shared workspace is a row of kind
 * `workspace`, with a name and a URL segment of its own (unique among accounts' and workspaces'
 * segments by the existing index) and no e-mail, password or session. Every owner-scoped query
 * stays as it is and scopes to the workspace.
 *
 * - `workspace_members`: who may act in a shared workspace, with which role. A workspace keeps at
 *   least one OWNER: role changes and removals lock the workspace's row and count its owners.
 *   A personal workspace has no rows here: its account is its only member, an OWNER.
 * - `workspace_invitations`: single-use, expiring invitations by e-mail address and role (the
 *   secret of the link only as its SHA-256).
 * - `api_tokens.created_by`, `files.created_by`, `shares.created_by`: the account that made it,
 *   for a token the account it acts as (with its role at each call; NULL reads as its owner).
 *   Existing rows were made by their owner.
 * - A membership change is announced on the change feed as a change of the workspace's account
 *   (`accounts:<workspace id>`), so every replica drops the tokens it holds for that workspace.
 */
export class Workspaces1763700002500 implements MigrationInterface {
  name = 'Workspaces1763700002500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users
        ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'workspace')),
        ADD COLUMN name text CHECK (char_length(name) BETWEEN 1 AND 80),
        ALTER COLUMN email DROP NOT NULL,
        ADD CONSTRAINT users_person_email CHECK (kind = 'workspace' OR email IS NOT NULL),
        ADD CONSTRAINT users_workspace_name CHECK (kind = 'person' OR name IS NOT NULL);

      CREATE TABLE workspace_members (
        workspace_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'EDITOR', 'VIEWER')),
        joined_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, user_id)
      );
      CREATE INDEX workspace_members_user ON workspace_members (user_id);

      CREATE TABLE workspace_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (char_length(email) <= 254),
        role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'EDITOR', 'VIEWER')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES users(id) ON DELETE SET NULL,
        revoked_at timestamptz
      );
      CREATE INDEX workspace_invitations_workspace ON workspace_invitations (workspace_id, created_at DESC);

      -- NULL: made by its owner (every token before workspaces, and any a personal workspace makes).
      ALTER TABLE api_tokens ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE CASCADE;
      UPDATE api_tokens SET created_by = user_id;
      ALTER TABLE files ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL;
      UPDATE files SET created_by = user_id;
      ALTER TABLE shares ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL;
      UPDATE shares SET created_by = user_id;

      CREATE FUNCTION sharedown_notify_membership_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_notify('sharedown_changes', 'accounts:' || coalesce(NEW.workspace_id, OLD.workspace_id));
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER workspace_members_announce_change AFTER INSERT OR UPDATE OR DELETE ON workspace_members
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_membership_change();
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER IF EXISTS workspace_members_announce_change ON workspace_members;
      DROP FUNCTION IF EXISTS sharedown_notify_membership_change();
      ALTER TABLE shares DROP COLUMN created_by;
      ALTER TABLE files DROP COLUMN created_by;
      ALTER TABLE api_tokens DROP COLUMN created_by;
      DROP TABLE workspace_invitations;
      DROP TABLE workspace_members;
      DELETE FROM users WHERE kind = 'workspace';
      ALTER TABLE users DROP CONSTRAINT users_workspace_name, DROP CONSTRAINT users_person_email,
        ALTER COLUMN email SET NOT NULL, DROP COLUMN name, DROP COLUMN kind;
    `);
  }
}
