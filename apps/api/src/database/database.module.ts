import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ChangeFeed } from './change-feed.js';
import { openMigratedDataSource } from './data-source.js';

/**
 * A request that touches the database answers within 10 s even when the database is stopping,
 * unreachable or stuck behind a lock: a connection within 3 s, a statement within 7 s, and a
 * server that does not answer at all is given up on after 8 s.
 */
const STATEMENT_TIMEOUT_MS = 7_000;
const ANSWER_TIMEOUT_MS = 8_000;

function openDataSource(runtime: Runtime): Promise<DataSource> {
  return openMigratedDataSource(runtime.databaseUrl, {
    poolSize: 20,
    timeouts: { statementMs: STATEMENT_TIMEOUT_MS, answerMs: ANSWER_TIMEOUT_MS },
  });
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
