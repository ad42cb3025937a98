import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Env } from '../config/env.js';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../database/embedded-postgres.js';

export interface BackupDatabase {
  url: string;
  /** Stops the embedded PostgreSQL this command started, if it started one. */
  close(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The database the service's environment names: DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR — the one a running service started (its state file says where), else started here
 * for the length of the command, so backup and restore work whether or not the service runs.
 */
export async function openInstanceDatabase(env: Env): Promise<BackupDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, close: async () => undefined };
  const running = await runningEmbeddedUrl(env.DATA_DIR);
  if (running && (await answers(running))) return { url: running, close: async () => undefined };
  const embedded = await startEmbeddedPostgres(env.DATA_DIR);
  return { url: embedded.url, close: () => embedded.stop() };
}

/** SESSION_SECRET, or the one the service generated in DATA_DIR; null if there is none yet (nothing is generated here). */
export async function existingSessionSecret(env: Env): Promise<string | null> {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  try {
    const stored = (await readFile(join(env.DATA_DIR, 'session-secret'), 'utf8')).trim();
    return stored.length >= 32 ? stored : null;
  } catch {
    return null;
  }
}
