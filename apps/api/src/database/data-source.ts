import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { migrations } from './migrations/index.js';

const MIGRATION_LOCK = 4_202_611;

/**
 * A connection pool to `databaseUrl` with every committed migration applied: the service's own
 * connection, and the one `npm run restore` prepares an empty database with.
 */
export async function openMigratedDataSource(databaseUrl: string, poolSize: number): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: databaseUrl,
    migrations,
    synchronize: false,
    migrationsRun: false,
    poolSize,
    extra: { connectionTimeoutMillis: 5000 },
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
  }
  return dataSource;
}
