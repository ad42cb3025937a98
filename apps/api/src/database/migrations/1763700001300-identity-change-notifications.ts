import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every api process keeps the identities of the API tokens it has seen (token, owner, quota and
 * usage) in memory, dropped on the change feed's notifications (channel `sharedown_changes`,
 * payload `<topic>:<key>`, see database/change-feed.ts). These triggers send them from the
 * database itself, in the transaction that changes the row, so no code path that changes an
 * account or a token (an upload's usage, a revocation, a quota or an administrator's action) can
 * forget to: `accounts:<user id>` for any change of a `users` row, `tokens:<prefix>` for any
 * change of an `api_tokens` row. Bookkeeping that no identity holds (the sign-in time, the last
 * two-factor step, a token's last use, written once a minute) sends nothing. PostgreSQL delivers
 * the notifications when the transaction commits (never if it rolls back) and folds duplicates
 * within one transaction.
 */
export class IdentityChangeNotifications1763700001300 implements MigrationInterface {
  name = 'IdentityChangeNotifications1763700001300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION sharedown_notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('sharedown_changes', 'accounts:' || OLD.id);
          RETURN OLD;
        END IF;
        IF to_jsonb(OLD) - 'last_sign_in_at' - 'totp_last_step' IS DISTINCT FROM to_jsonb(NEW) - 'last_sign_in_at' - 'totp_last_step' THEN
          PERFORM pg_notify('sharedown_changes', 'accounts:' || NEW.id);
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER users_announce_change AFTER UPDATE OR DELETE ON users
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_account_change();

      CREATE FUNCTION sharedown_notify_token_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('sharedown_changes', 'tokens:' || OLD.prefix);
          RETURN OLD;
        END IF;
        IF to_jsonb(OLD) - 'last_used_at' IS DISTINCT FROM to_jsonb(NEW) - 'last_used_at' THEN
          PERFORM pg_notify('sharedown_changes', 'tokens:' || OLD.prefix);
          IF NEW.prefix IS DISTINCT FROM OLD.prefix THEN
            PERFORM pg_notify('sharedown_changes', 'tokens:' || NEW.prefix);
          END IF;
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER api_tokens_announce_change AFTER UPDATE OR DELETE ON api_tokens
        FOR EACH ROW EXECUTE FUNCTION sharedown_notify_token_change();
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER IF EXISTS api_tokens_announce_change ON api_tokens;
      DROP FUNCTION IF EXISTS sharedown_notify_token_change();
      DROP TRIGGER IF EXISTS users_announce_change ON users;
      DROP FUNCTION IF EXISTS sharedown_notify_account_change();
    `);
  }
}
