import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ChangeFeed } from './change-feed.js';
import { openMigratedDataSource } from './data-source.js';

function openDataSource(runtime: Runtime): Promise<DataSource> {
  return openMigratedDataSource(runtime.databaseUrl, 20);
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
