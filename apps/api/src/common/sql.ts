import type { DataSource, EntityManager } from 'typeorm';

type Executor = Pick<DataSource | EntityManager, 'query'>;

/**
 * Runs SQL and returns its rows. TypeORM's postgres driver answers UPDATE/DELETE …
 * RETURNING with `[rows, affectedCount]` but SELECT/INSERT with plain rows; this
 * always gives the rows.
 */
export async function rows<T>(executor: Executor, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await executor.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
