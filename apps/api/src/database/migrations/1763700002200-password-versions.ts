import type { MigrationInterface, QueryRunner } from 'typeorm';
import { COLLECTION_GATE_COLUMNS, COLLECTION_GATE_FROM } from './1763700001700-collections-agreements.js';

/** The gate row's columns as migration 1763700001800 left them. */
const GATE_CACHE_COLUMNS = `${COLLECTION_GATE_COLUMNS}, s.expires_at`;

/**
 * A share's password version: raised by the database whenever its password is set, changed or
 * removed, whichever code path writes it. A browser's unlock (the access cookie) and a
 * collection's pass name the version they were proved under; the gate row carries the current
 * one, so after a change every replica asks for the password again on the next request. The
 * change is announced on the change feed as any other change of `shares` is (migration
 * 1763700001800), which drops the gate rows the api processes hold.
 *
 * Existing unlocks carry no version and count as version 0, the one every share starts with, so
 * the upgrade locks nobody out who proved the password in force.
 */
export class PasswordVersions1763700002200 implements MigrationInterface {
  name = 'PasswordVersions1763700002200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE shares ADD COLUMN password_version integer NOT NULL DEFAULT 0;

      CREATE FUNCTION shares_password_version() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.password_version := OLD.password_version + 1;
        RETURN NEW;
      END
      $fn$;
      -- Every write of a password is a new one (a new salt even for the same text): the version moves.
      CREATE TRIGGER shares_password_version BEFORE UPDATE OF password_hash ON shares
        FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash)
        EXECUTE FUNCTION shares_password_version();

      CREATE OR REPLACE VIEW share_gate AS SELECT ${GATE_CACHE_COLUMNS}, s.password_version ${COLLECTION_GATE_FROM};
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP VIEW share_gate;
      CREATE VIEW share_gate AS SELECT ${GATE_CACHE_COLUMNS} ${COLLECTION_GATE_FROM};
      DROP TRIGGER IF EXISTS shares_password_version ON shares;
      DROP FUNCTION IF EXISTS shares_password_version();
      ALTER TABLE shares DROP COLUMN password_version;
    `);
  }
}
