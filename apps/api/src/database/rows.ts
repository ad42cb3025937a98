import type { Selectable } from 'kysely';
import type { DB } from './schema.generated.js';

/**
 * A row of table or view `T` as a `SELECT *` returns it through node-postgres, from the types
 * generated off the migrated schema (schema.generated.ts, `npm run db:types`). Repositories keep
 * their SQL and pick their columns from it, e.g. `Pick<Row<'folders'>, 'id' | 'name'>`, so that a
 * column a migration renames or drops fails the type check. Only types come from kysely.
 */
export type Row<T extends keyof DB> = Selectable<DB[T]>;

/** The names of the tables and views. */
export type TableName = keyof DB;
