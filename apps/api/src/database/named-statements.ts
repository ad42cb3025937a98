import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** A connection of node-postgres' pool, taken for a transaction of several statements (or a COPY). */
export type PooledClient = pg.PoolClient;

/** node-postgres' pool, which TypeORM's PostgreSQL driver keeps as `master`. */
export interface NamedStatementPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  /** A connection of its own (node-postgres' Pool always has it). */
  connect?(): Promise<PooledClient>;
}

/**
 * Hot queries run as named prepared statements on TypeORM's own pool: each pooled connection
 * plans them once, and the call skips TypeORM's per-query runner. Null when the driver keeps no
 * such pool (then callers fall back to `DataSource.query`).
 */
export function namedStatementPool(db: DataSource): NamedStatementPool | null {
  // `master` is the PostgreSQL driver's public (if untyped) pool of node-postgres clients.
  const master: unknown = db.driver instanceof PostgresDriver ? db.driver.master : null;
  return typeof (master as Partial<NamedStatementPool> | null)?.query === 'function' ? (master as NamedStatementPool) : null;
}

/** Runs `text` as the named statement `name`, or through TypeORM when there is no pool. */
export async function namedQuery<T>(
  db: DataSource,
  pool: NamedStatementPool | null,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  if (!pool) return db.query(text, values);
  return (await pool.query({ name, text, values })).rows as T[];
}
