import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-context.js';
import { migrations } from './migrations/index.js';

/**
 * For the `pg` test project (*.pg.spec.ts): services against a real PostgreSQL. Each spec file
 * gets a database of its own on the machine's server, migrated as the service migrates its own.
 */
const SERVER_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  dataSource: DataSource;
  /** Closes the connections and drops the database. */
  drop(): Promise<void>;
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, migrated database; call `drop()` after the spec. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sharedown_pg_${process.pid}_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const dataSource = new DataSource({ type: 'postgres', url: url.toString(), migrations, poolSize: 10 });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'all' });
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw error;
  }
  return {
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

let userCounter = 0;

/** An account row as registration leaves it (a password, unproven address), and the user the services see. */
export async function createTestUser(
  db: DataSource,
  options: { quotaBytes?: number; emailVerified?: boolean } = {},
): Promise<AuthUser> {
  const n = ++userCounter;
  const email = `user${n}-${randomBytes(3).toString('hex')}@example.com`;
  const segment = email.split('@')[0]!;
  const quotaBytes = options.quotaBytes ?? 1024 * 1024;
  const rows: Array<{ id: string }> = await db.query(
    `INSERT INTO users (email, segment, password_hash, quota_bytes, email_verified_at)
     VALUES ($1, $2, 'not-a-real-hash', $3, CASE WHEN $4 THEN now() END) RETURNING id`,
    [email, segment, quotaBytes, options.emailVerified === true],
  );
  return {
    id: rows[0]!.id,
    email,
    segment,
    quotaBytes,
    usedBytes: 0,
    emailVerified: options.emailVerified === true,
    hasPassword: true,
    twoFactorEnabled: false,
    isAdmin: false,
  };
}

/** A share of a new Markdown file (no version) of `userId`: enough for statements that need a share row. */
export async function createTestShare(db: DataSource, userId: string): Promise<{ fileId: string; shareId: string }> {
  const [file]: Array<{ id: string }> = await db.query(
    `INSERT INTO files (user_id, name, kind) VALUES ($1, $2, 'MARKDOWN') RETURNING id`,
    [userId, `${randomUUID()}.md`],
  );
  const [share]: Array<{ id: string }> = await db.query(
    `INSERT INTO shares (user_id, file_id, token) VALUES ($1, $2, $3) RETURNING id`,
    [userId, file!.id, randomUUID().replace(/-/g, '')],
  );
  return { fileId: file!.id, shareId: share!.id };
}
