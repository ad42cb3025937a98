import type { FastifyInstance } from 'fastify';
import type { ShareGateCache } from './share-gate-cache.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Drops this process's cached gate rows once any request that may have written has its answer
 * ready, before the answer leaves: its transaction has committed, and the change feed's own
 * notification (which every process gets) may still be on its way, while the caller's very next
 * request could already be here. The viewer's own forms and beacons (`/s/…`) change no gate row
 * of a link judged locally, and a view must not empty the cache for the next one.
 */
export function forgetGatesOnWrites(fastify: FastifyInstance, gates: ShareGateCache): void {
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (!READS.has(request.method) && !request.url.startsWith('/s/')) gates.clear();
    done(null, payload);
  });
}
