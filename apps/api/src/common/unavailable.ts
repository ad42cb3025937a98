import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { AppError, ErrorCode } from './app-error.js';
import { TimeoutError } from './with-timeout.js';

/**
 * How long a client is told to wait before trying again. A restart of PostgreSQL or Redis takes
 * a few seconds; the pools reconnect on the next request after it.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 503 UNAVAILABLE with its Retry-After. */
export function unavailable(): AppError {
  return new AppError(ErrorCode.UNAVAILABLE, undefined, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
}

/** Socket errors of a peer that is down, restarting or unreachable (Node's `code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'EAI_AGAIN',
]);

/**
 * What node-postgres, pg-pool and ioredis say when the connection, not the statement, failed.
 * They carry no code, so their wording is the only mark; each is the library's fixed text.
 */
const CONNECTION_MESSAGES = [
  // node-postgres: the server closed the socket, or the connect took longer than connectionTimeoutMillis.
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  // pg-pool: no pooled client came free within connectionTimeoutMillis; node-postgres: no answer within query_timeout.
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  // ioredis: the socket is gone, the command was given up after its retries, or never sent while offline.
  /^Connection is closed\.?$/,
  /^Reached the max retries per request limit/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Command timed out$/,
  // Redis replies while it loads its data set after a restart.
  /^LOADING /,
];

/** SQLSTATEs of a server that is stopping, starting, crashed or full, rather than of the statement. */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or an administrator ended the session
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
]);

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when `error` (or the error it wraps: a TypeORM QueryFailedError's driverError, a `cause`,
 * an AggregateError of several connection attempts) says a backing service could not be reached
 * or went away mid-request, as opposed to refusing the request itself.
 */
export function isBackingServiceDown(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof AppError) return error.code === ErrorCode.UNAVAILABLE;
  // withTimeout guards calls to other services only (the queue, clamd): no answer in time means down.
  if (error instanceof TimeoutError) return true;
  // TypeORM releases a transaction's connection when it reports an error (the server ended the
  // session between two statements): the transaction's next statement then fails with these.
  if (error instanceof QueryRunnerProviderAlreadyReleasedError || error instanceof QueryRunnerAlreadyReleasedError) return true;
  const code = codeOf(error);
  if (code !== undefined && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
    return true;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  const nested = error as { driverError?: unknown; cause?: unknown; errors?: unknown };
  if (isBackingServiceDown(nested.driverError, depth + 1) || isBackingServiceDown(nested.cause, depth + 1)) return true;
  return Array.isArray(nested.errors) && nested.errors.some((inner) => isBackingServiceDown(inner, depth + 1));
}
