import type { QueryRunner } from 'typeorm';

/** A PostgreSQL identifier quoted for SQL; names come from the database's own catalog. */
function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface ForeignKey {
  table: string;
  name: string;
}

/**
 * The SQL of backup and restore, on one connection (a QueryRunner) so that a backup reads one
 * snapshot and a restore writes in one transaction.
 */
export class BackupRepository {
  constructor(private readonly runner: QueryRunner) {}

  /** One consistent picture of every table, however long the backup takes and whatever the service writes meanwhile. */
  async beginSnapshot(): Promise<void> {
    await this.runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  async begin(): Promise<void> {
    await this.runner.query('BEGIN');
  }

  async commit(): Promise<void> {
    await this.runner.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.runner.query('ROLLBACK');
  }

  async appliedMigrations(): Promise<string[]> {
    const found: { name: string }[] = await this.runner.query(`SELECT name FROM migrations ORDER BY id`);
    return found.map((row) => row.name);
  }

  /** The ordinary tables of the service's schema, by name. */
  async tables(): Promise<string[]> {
    const found: { name: string }[] = await this.runner.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.relname`,
    );
    return found.map((row) => row.name);
  }

  /** A table's stored columns in order (generated columns are computed again, not restored). */
  async columns(table: string): Promise<string[]> {
    const found: { name: string }[] = await this.runner.query(
      `SELECT attname AS name FROM pg_attribute
       WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
       ORDER BY attnum`,
      [quoted(table)],
    );
    return found.map((row) => row.name);
  }

  /** Every row of `table` as one line of JSON text (jsonb writes no line breaks, even for a json column), fetched `batch` at a time through a cursor. */
  async *rows(table: string, batch = 200): AsyncGenerator<string[]> {
    await this.runner.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS row FROM ${quoted(table)} t`);
    try {
      for (;;) {
        const fetched: { row: string }[] = await this.runner.query(`FETCH ${batch} FROM backup_rows`);
        if (fetched.length === 0) return;
        yield fetched.map((row) => row.row);
      }
    } finally {
      await this.runner.query('CLOSE backup_rows');
    }
  }

  async countUsers(): Promise<number> {
    const [row]: { n: number }[] = await this.runner.query(`SELECT count(*)::int AS n FROM users`);
    return row!.n;
  }

  /** Keeps a running service from writing into the instance while it is being restored. */
  async lockUsers(): Promise<void> {
    await this.runner.query(`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`);
  }

  /**
   * Inserts rows given as JSON objects (one JSON array text). Only `columns` are written; a column
   * the archive does not have (it came from an older version) gets its default.
   */
  async insertRows(table: string, columns: string[], jsonArray: string): Promise<void> {
    const list = columns.map(quoted).join(', ');
    // Identity columns (GENERATED ALWAYS) keep the archived values: rows refer to them and lists page by them.
    await this.runner.query(
      `INSERT INTO ${quoted(table)} (${list}) OVERRIDING SYSTEM VALUE
       SELECT ${list} FROM json_populate_recordset(NULL::${quoted(table)}, $1::json)`,
      [jsonArray],
    );
  }

  /** Moves every identity column's sequence past the largest restored value, so new rows never collide with restored ones. */
  async advanceIdentities(): Promise<void> {
    const found: { table_name: string; column_name: string }[] = await this.runner.query(
      `SELECT c.relname AS table_name, a.attname AS column_name
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attidentity <> '' AND NOT a.attisdropped`,
    );
    for (const { table_name: table, column_name: column } of found) {
      await this.runner.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quoted(column)}) FROM ${quoted(table)}), 0) + 1, false)`,
        [quoted(table), column],
      );
    }
  }

  /**
   * Makes every foreign key of the schema checked at commit instead of per row, for this
   * transaction: rows then go in whatever order the archive has them, cycles included (a file
   * names its current version and the version its file). undeferForeignKeys puts them back.
   */
  async deferForeignKeys(): Promise<ForeignKey[]> {
    const keys: ForeignKey[] = await this.runner.query(
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name FROM pg_constraint c
       JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE n.nspname = current_schema() AND c.contype = 'f' AND NOT c.condeferrable`,
    );
    for (const key of keys) {
      await this.runner.query(`ALTER TABLE ${key.table} ALTER CONSTRAINT ${quoted(key.name)} DEFERRABLE INITIALLY DEFERRED`);
    }
    await this.runner.query('SET CONSTRAINTS ALL DEFERRED');
    return keys;
  }

  /** Checks every deferred foreign key now, then makes them immediate again as the migrations made them. */
  async undeferForeignKeys(keys: ForeignKey[]): Promise<void> {
    await this.runner.query('SET CONSTRAINTS ALL IMMEDIATE');
    for (const key of keys) {
      await this.runner.query(`ALTER TABLE ${key.table} ALTER CONSTRAINT ${quoted(key.name)} NOT DEFERRABLE`);
    }
  }

  async sealedTotpSecrets(): Promise<{ id: string; sealed: string }[]> {
    return this.runner.query(`SELECT id, totp_secret AS sealed FROM users WHERE totp_secret IS NOT NULL`);
  }

  async setSealedTotpSecret(userId: string, sealed: string): Promise<void> {
    await this.runner.query(`UPDATE users SET totp_secret = $2 WHERE id = $1`, [userId, sealed]);
  }
}
