import type { Selectable } from 'kysely';
import type { DB, JsonValue } from './schema.generated.js';

/**
 * Row types derived from the types generated off the migrated schema (schema.generated.ts,
 * `npm run db:types`). Repositories keep their SQL and pick their columns from these, so that a
 * column a migration renames, drops or retypes fails the type check. Only types come from kysely.
 */

/** The names of the tables and views. */
export type TableName = keyof DB;

/** A row of table or view `T` as a `SELECT *` returns it through node-postgres. */
export type Row<T extends TableName> = Selectable<DB[T]>;

/** What a column may be narrowed to: a jsonb column to any shape, any other to a subtype of its own. */
type Narrowing<C> = JsonValue extends C ? unknown : C;

/** Narrowings of columns `K` of `T` only, each within its column's type. */
type Narrowings<T extends TableName, K extends keyof Row<T>, N> = {
  [C in keyof N]: C extends K ? Narrowing<Row<T>[C]> : never;
};

/**
 * Columns `K` of `T` as a query selecting them by name returns them, with `N` narrowing some of
 * them to what the code knows of them (a text column to a union of its values, a jsonb column to a
 * shape, a nullable column the query's WHERE makes not null): e.g.
 * `Columns<'audit_events', 'id' | 'action', { action: AuditAction }>`.
 */
export type Columns<T extends TableName, K extends keyof Row<T>, N extends Narrowings<T, K, N> = None> = Narrowed<
  Pick<Row<T>, K>,
  N
>;

/** No narrowing. */
type None = Record<never, never>;

/** `R` with the columns `N` names typed as `N` has them. */
type Narrowed<R, N> = Omit<R, keyof N> & N;
