import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ChangeFeed } from './change-feed.js';
import { migrations } from './migrations/index.js';

const MIGRATION_LOCK = 4_202_611;

async function openDataSource(runtime: Runtime): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: runtime.databaseUrl,
    migrations,
    synchronize: false,
    migrationsRun: false,
    poolSize: 20,
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

/**
 * The PostgreSQL connection (migrations run at start) and the change feed (LISTEN/NOTIFY between
 * replicas). Global on purpose: every repository needs the connection, and it is infrastructure
 * that no feature module owns; importing it into each feature would say nothing about the feature.
 */
@Global()
@Module({
  providers: [{ provide: DataSource, inject: [RUNTIME], useFactory: openDataSource }, ChangeFeed],
  exports: [DataSource, ChangeFeed],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
