import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { migrations } from './migrations/index.js';

const MIGRATION_LOCK = 4_202_611;

/** How long the pool may wait for a connection: to open one, or for one of its own to come free. */
export const CONNECT_TIMEOUT_MS = 3_000;

export interface PoolOptions {
  poolSize: number;
  /**
   * Bounds on each statement of the pool, in ms (none when unset): `statementMs` is the server's
   * statement_timeout (a statement, or the lock it queues for, is cancelled); `answerMs` is how
   * long the client waits for any answer, for a server that stopped answering without closing
   * its sockets (pg-client-guard.ts then drops the connection).
   */
  timeouts?: { statementMs: number; answerMs: number };
}

/** Applies the pending migrations on a connection of their own, which may wait and work as long as they need. */
async function migrate(databaseUrl: string): Promise<void> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: databaseUrl,
    migrations,
    synchronize: false,
    migrationsRun: false,
    poolSize: 2,
    extra: { connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
  });
  await dataSource.initialize();
  // Several replicas may start together: one at a time runs the pending migrations.
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'all' });
    if (applied.length) new Logger('Database').log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}

/**
 * A connection pool to `databaseUrl` with every committed migration applied: the service's own
 * connection, and the one `npm run restore` prepares an empty database with.
 */
export async function openMigratedDataSource(databaseUrl: string, options: PoolOptions): Promise<DataSource> {
  await migrate(databaseUrl);
  const dataSource = new DataSource({
    type: 'postgres',
    url: databaseUrl,
    synchronize: false,
    migrationsRun: false,
    poolSize: options.poolSize,
    extra: {
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // The kernel finds out a server that vanished without closing its sockets.
      keepAlive: true,
      ...(options.timeouts ? { statement_timeout: options.timeouts.statementMs, query_timeout: options.timeouts.answerMs } : {}),
    },
  });
  await dataSource.initialize();
  return dataSource;
}
