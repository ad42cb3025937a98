import type { DataSource, EntityManager } from 'typeorm';

type Executor = Pick<DataSource | EntityManager, 'query'>;

/**
 * The rows of a TypeORM postgres `query()` result. The driver answers UPDATE/DELETE …
 * RETURNING with `[rows, affectedCount]` but SELECT/INSERT with plain rows.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}

/** Runs SQL and returns its rows, whatever the statement. */
export async function rows<T>(executor: Executor, sql: string, params: unknown[] = []): Promise<T[]> {
  return returnedRows<T>(await executor.query(sql, params));
}

/** How many rows an UPDATE or DELETE touched (TypeORM's postgres driver answers `[rows, count]`). */
export function affectedCount(result: unknown): number {
  return Array.isArray(result) && result.length === 2 && typeof result[1] === 'number' ? result[1] : 0;
}
