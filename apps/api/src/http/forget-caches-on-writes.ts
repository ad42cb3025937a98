import type { FastifyInstance } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import type { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import type { ShareGateCache } from '../viewer/gate/share-gate-cache.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A viewer page's engagement beacon: frequent, and it writes the visit log only. */
const BEACON = '/s/_beacon';

/**
 * Drops what this process holds of what a request may have written, once its answer is ready and
 * before it leaves: its transaction has committed, and the change feed's own notification (which
 * every process gets) may still be on its way, while the caller's very next request could already
 * be here. A refused request (4xx) wrote nothing, so it drops nothing: a flood of bad form posts or
 * unauthenticated calls cannot make every view read its gate row again.
 * - The gate rows of every link (`ShareGateCache`), after any request that may write. That
 *   includes the viewer's own forms (a reveal uses up a one-time link), but not its engagement
 *   beacons, which every open page sends.
 * - The caller's own account as its tokens carry it (`TokenIdentityCache`), after any request
 *   that may write made by a signed-in caller: an upload or a delete changes its `usedBytes`, which
 *   its next `GET /v1/me` must show.
 */
export function forgetCachesOnWrites(fastify: FastifyInstance, gates: ShareGateCache, identities: TokenIdentityCache): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const refused = reply.statusCode >= 400 && reply.statusCode < 500;
    if (!refused && !READS.has(request.method) && !request.url.startsWith(BEACON)) {
      gates.clear();
      const auth = (request as AuthenticatedRequest).auth;
      if (auth) identities.forgetUser(auth.user.id);
    }
    done(null, payload);
  });
}
