import { AppError } from './app-error.js';

/** Rows per page when a request asks for pages without naming a size. */
export const DEFAULT_PAGE_LIMIT = 50;
/** The largest page a list route answers. */
export const MAX_PAGE_LIMIT = 200;
/** Room for the longest key (a 255-character file name of 4-byte characters); anything longer is not one of ours. */
export const MAX_CURSOR_LENGTH = 2048;

export const LIMIT_MESSAGE = `limit 必须是 1 到 ${MAX_PAGE_LIMIT} 之间的整数`;
export const CURSOR_MESSAGE = 'cursor 无效：请使用上一页答复中的 nextCursor';

/** A request for one page: how many rows, and after which row (null = from the start). */
export interface PageRequest<Key> {
  limit: number;
  after: Key | null;
}

/**
 * How a list names its position: the values of its order keys for the last row of a page.
 * `parse` returns null for values that do not fit the key, so a garbage cursor is refused
 * before any SQL sees it.
 */
export interface CursorKey<Key> {
  /** Tells cursors of different lists apart: a files cursor is no position in the shares list. */
  list: string;
  encode(key: Key): string[];
  parse(values: string[]): Key | null;
}

/**
 * Opaque to clients: base64url of `[list, ...keyValues]`. It holds only the position of a row
 * in the caller's own list, never an owner or a filter; every page query is scoped to the
 * caller, so a cursor taken from another account points nowhere in this one's rows.
 */
export function encodeCursor<Key>(cursorKey: CursorKey<Key>, key: Key): string {
  return Buffer.from(JSON.stringify([cursorKey.list, ...cursorKey.encode(key)]), 'utf8').toString('base64url');
}

function decodeCursor<Key>(cursorKey: CursorKey<Key>, raw: string): Key {
  if (raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) throw AppError.validation(CURSOR_MESSAGE);
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw AppError.validation(CURSOR_MESSAGE);
  }
  if (!Array.isArray(values) || values[0] !== cursorKey.list || !values.every((value) => typeof value === 'string')) {
    throw AppError.validation(CURSOR_MESSAGE);
  }
  const key = cursorKey.parse(values.slice(1) as string[]);
  if (key === null) throw AppError.validation(CURSOR_MESSAGE);
  return key;
}

/**
 * The page a request asks for, or null when it names neither `limit` nor `cursor` (the route
 * then answers its whole list, as it always has). Query values arrive as strings.
 */
export function pageRequestOf<Key>(
  cursorKey: CursorKey<Key>,
  query: { limit?: unknown; cursor?: unknown },
): PageRequest<Key> | null {
  const { limit, cursor } = query;
  if (limit === undefined && cursor === undefined) return null;
  let size = DEFAULT_PAGE_LIMIT;
  if (limit !== undefined) {
    if (typeof limit !== 'string' || !/^\d{1,3}$/.test(limit)) throw AppError.validation(LIMIT_MESSAGE);
    size = Number(limit);
    if (size < 1 || size > MAX_PAGE_LIMIT) throw AppError.validation(LIMIT_MESSAGE);
  }
  if (cursor !== undefined && typeof cursor !== 'string') throw AppError.validation(CURSOR_MESSAGE);
  return { limit: size, after: cursor === undefined || cursor === '' ? null : decodeCursor(cursorKey, cursor) };
}

/**
 * Cuts the `limit + 1` rows a page query fetched down to the page, with the cursor of its last
 * row when the extra row shows that more follow.
 */
export function pageOf<Row, Key>(
  rows: Row[],
  limit: number,
  cursorKey: CursorKey<Key>,
  keyOf: (row: Row) => Key,
): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(cursorKey, keyOf(page[page.length - 1]!)) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A timestamp as PostgreSQL prints it for the cursor, microseconds kept (see `CURSOR_TIME`). */
const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** SQL printing a timestamptz with all its microseconds, in UTC, for a cursor. */
export function cursorTimeSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export function isCursorUuid(value: string | undefined): value is string {
  return value !== undefined && UUID.test(value);
}

export function isCursorTimestamp(value: string | undefined): value is string {
  return value !== undefined && CURSOR_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** The position in a list read newest first: created_at (to the microsecond), then id, both descending. */
export interface NewestFirstKey {
  createdAt: string;
  id: string;
}

export function newestFirstCursor(list: string): CursorKey<NewestFirstKey> {
  return {
    list,
    encode: (key) => [key.createdAt, key.id],
    parse: ([createdAt, id, ...rest]) =>
      rest.length === 0 && isCursorTimestamp(createdAt) && isCursorUuid(id) ? { createdAt, id } : null,
  };
}

/** Keyset condition of a newest-first page: rows strictly after the cursor's row, as one index range. */
export function newestFirstAfterSql(timeParam: number, idParam: number, alias = ''): string {
  return `(${alias}created_at, ${alias}id) < ($${timeParam}::timestamptz, $${idParam}::uuid)`;
}

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export const MAX_SEARCH_LENGTH = 200;

/** The `q` of a list's query: trimmed, undefined when blank; 400 when it is no short line of text. */
export function searchText(q: unknown): string | undefined {
  if (q === undefined) return undefined;
  if (typeof q !== 'string' || q.length > MAX_SEARCH_LENGTH || /[\u0000-\u001f\u007f]/.test(q)) {
    throw AppError.validation(`q 必须是不超过 ${MAX_SEARCH_LENGTH} 个字符的一行文字`);
  }
  return q.trim() || undefined;
}
