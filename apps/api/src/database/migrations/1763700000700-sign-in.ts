import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in beyond a password: proven e-mail addresses, accounts without a password (e-mail code or
 * single sign-on), OpenID Connect identities, two factors with recovery codes, one-time e-mail
 * codes, sessions that know their device, and API tokens with scopes and an expiry.
 */
export class SignIn1763700000700 implements MigrationInterface {
  name = 'SignIn1763700000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;
      ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
      ALTER TABLE users ADD COLUMN totp_secret text;
      ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz;
      ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;

      CREATE TABLE user_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      );
      CREATE INDEX user_identities_user_idx ON user_identities (user_id);

      CREATE TABLE recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

      CREATE TABLE email_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('sign-in', 'verify', 'reset')),
        code_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX email_codes_lookup_idx ON email_codes (lower(email), purpose, expires_at);

      ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
      ALTER TABLE sessions ADD COLUMN user_agent text;
      ALTER TABLE sessions ADD COLUMN ip_prefix text;
      ALTER TABLE sessions ADD COLUMN method text NOT NULL DEFAULT 'password';

      ALTER TABLE api_tokens ADD COLUMN scopes text[] NOT NULL DEFAULT '{read,write}';
      ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_tokens DROP COLUMN expires_at, DROP COLUMN scopes;
      ALTER TABLE sessions DROP COLUMN method, DROP COLUMN ip_prefix, DROP COLUMN user_agent, DROP COLUMN last_seen_at;
      DROP TABLE email_codes;
      DROP TABLE recovery_codes;
      DROP TABLE user_identities;
      ALTER TABLE users DROP COLUMN last_sign_in_at, DROP COLUMN totp_enabled_at, DROP COLUMN totp_secret, DROP COLUMN email_verified_at;
    `);
  }
}
