import { Logger } from '@nestjs/common';
import pg from 'pg';

/**
 * node-postgres listens for errors only on idle pooled clients. A client checked out by
 * TypeORM or BullMQ that loses its connection between queries (server restart, terminated
 * backend, network cut) emits 'error' with no listener, and Node ends the process. Every
 * client in the process (both libraries use this one `pg`) gets a listener for its whole
 * life: the failure then surfaces as a rejected query, answered as a 500 INTERNAL
 * envelope, and the pool replaces the broken client.
 */
export function guardPostgresClients(): void {
  const prototype = pg.Client.prototype as unknown as Record<string, unknown>;
  if (prototype['__sharedownGuarded']) return;
  const logger = new Logger('Database');
  const connect = prototype['connect'] as (this: pg.Client, ...args: unknown[]) => unknown;
  prototype['__sharedownGuarded'] = true;
  prototype['connect'] = function guardedConnect(this: pg.Client, ...args: unknown[]) {
    if (!Reflect.get(this, '__sharedownListening')) {
      Reflect.set(this, '__sharedownListening', true);
      this.on('error', (error: Error) => logger.warn(`database connection lost: ${error.message}`));
    }
    return connect.apply(this, args);
  };
}
