import { AppError, ErrorCode } from './app-error.js';
import { isBackingServiceDown, unavailable } from './unavailable.js';

/**
 * SQLSTATE codes a request can provoke without any fault of the service: a transaction that
 * lost a race to another one, or text PostgreSQL cannot store.
 */
const LOST_RACE = { code: ErrorCode.CONFLICT, message: '操作冲突，请重试' };
const INVALID_CHARACTER = { code: ErrorCode.VALIDATION, message: '请求包含无效字符' };

const DATABASE_ERRORS: ReadonlyMap<string, { code: ErrorCode; message: string }> = new Map([
  // deadlock_detected, serialization_failure, lock_not_available: another request got there first.
  ['40P01', LOST_RACE],
  ['40001', LOST_RACE],
  ['55P03', LOST_RACE],
  // character_not_in_repertoire, untranslatable_character (a NUL character in text, for one).
  ['22021', INVALID_CHARACTER],
  ['22P05', INVALID_CHARACTER],
]);

/** The SQLSTATE of a driver error, or of the driver error a TypeORM QueryFailedError wraps. */
function sqlStateOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } | null };
  const code = candidate.driverError?.code ?? candidate.code;
  return typeof code === 'string' ? code : undefined;
}

/** query_canceled by the service's own statement_timeout (57014 is also an administrator's cancel). */
function statementTimedOut(error: unknown): boolean {
  if (sqlStateOf(error) !== '57014' || !error || typeof error !== 'object') return false;
  const { message, driverError } = error as { message?: unknown; driverError?: { message?: unknown } | null };
  const text = typeof driverError?.message === 'string' ? driverError.message : message;
  return typeof text === 'string' && text.includes('statement timeout');
}

/**
 * The contract error for a PostgreSQL failure the client can act on (409 CONFLICT to retry,
 * 400 VALIDATION for text the database refuses, 503 UNAVAILABLE while the database or another
 * backing service cannot be reached or did not answer in time); null for every other error.
 */
export function appErrorFromDatabase(error: unknown): AppError | null {
  const state = sqlStateOf(error);
  const known = state === undefined ? undefined : DATABASE_ERRORS.get(state);
  if (known) return new AppError(known.code, known.message);
  return isBackingServiceDown(error) || statementTimedOut(error) ? unavailable() : null;
}

/** True when `error` is answered 503 UNAVAILABLE: for the answers that are pages rather than envelopes. */
export function isUnavailable(error: unknown): boolean {
  return appErrorFromDatabase(error)?.code === ErrorCode.UNAVAILABLE;
}
