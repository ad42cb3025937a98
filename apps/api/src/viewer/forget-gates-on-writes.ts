import type { FastifyInstance } from 'fastify';
import type { ShareGateCache } from './share-gate-cache.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A viewer page's engagement beacon: frequent, and it writes the visit log only. */
const BEACON = '/s/_beacon';

/**
 * Drops this process's cached gate rows once any request that may have written has its answer
 * ready, before the answer leaves: its transaction has committed, and the change feed's own
 * notification (which every process gets) may still be on its way, while the caller's very next
 * request could already be here. That includes the viewer's own forms (a reveal uses up a
 * one-time link), but not its engagement beacons, which every open page sends.
 */
export function forgetGatesOnWrites(fastify: FastifyInstance, gates: ShareGateCache): void {
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (!READS.has(request.method) && !request.url.startsWith(BEACON)) gates.clear();
    done(null, payload);
  });
}
