import { Logger } from '@nestjs/common';
import pg from 'pg';

/** node-postgres' error when a query got no answer within its client's query_timeout. */
const NO_ANSWER = 'Query read timeout';

type Callback = (error: unknown, result?: unknown) => void;

/**
 * Two guards on every node-postgres client in the process (TypeORM, BullMQ and the change
 * feed all use this one `pg`):
 * - node-postgres listens for errors only on idle pooled clients. A client checked out by
 *   TypeORM or BullMQ that loses its connection between queries (server restart, terminated
 *   backend, network cut) emits 'error' with no listener, and Node ends the process. Every client
 *   gets a listener for its whole life: the failure then surfaces as a rejected query, answered
 *   as a 503 UNAVAILABLE envelope, and the pool replaces the broken client.
 * - After a query_timeout node-postgres rejects the query but keeps the connection, with the
 *   unanswered query still in flight: every later query on it would queue behind that one and
 *   time out as well. Such a connection is closed instead, so the pool replaces it. That holds
 *   for a submittable query too (the visit log's COPY, pg-copy-streams), which learns of the
 *   timeout through its `handleError`: left open, the connection would hand the server's late
 *   answer to the COPY it gave up, which then writes to a connection it has already let go of
 *   and throws outside any promise.
 */
export function guardPostgresClients(): void {
  const prototype = pg.Client.prototype as unknown as Record<string, unknown>;
  if (prototype['__sharedownGuarded']) return;
  const logger = new Logger('Database');
  const connect = prototype['connect'] as (this: pg.Client, ...args: unknown[]) => unknown;
  const query = prototype['query'] as (this: pg.Client, ...args: unknown[]) => unknown;
  prototype['__sharedownGuarded'] = true;
  prototype['connect'] = function guardedConnect(this: pg.Client, ...args: unknown[]) {
    if (!Reflect.get(this, '__sharedownListening')) {
      Reflect.set(this, '__sharedownListening', true);
      this.on('error', (error: Error) => logger.warn(`database connection lost: ${error.message}`));
    }
    return connect.apply(this, args);
  };
  prototype['query'] = function guardedQuery(this: pg.Client, ...args: unknown[]) {
    const dropIfUnanswered = (error: unknown) => {
      if (!(error instanceof Error) || error.message !== NO_ANSWER) return;
      logger.warn('database connection closed: a query got no answer in time');
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    };
    const submittable = args[0] as { submit?: unknown; handleError?: (error: unknown, ...rest: unknown[]) => unknown } | null;
    if (typeof submittable?.submit === 'function' && typeof submittable.handleError === 'function') {
      const handleError = submittable.handleError;
      submittable.handleError = function guardedHandleError(this: unknown, error: unknown, ...rest: unknown[]) {
        dropIfUnanswered(error);
        return handleError.call(this, error, ...rest);
      };
    }
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (error: unknown, result?: unknown) => {
        dropIfUnanswered(error);
        callback(error, result);
      };
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) result.catch(dropIfUnanswered);
    return result;
  };
}
