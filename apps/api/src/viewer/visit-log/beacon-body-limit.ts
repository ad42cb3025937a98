import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { answerRouteError } from '../../http/route-errors.js';
import { MAX_BEACON_BYTES } from './visit-engagement.js';

/** The viewer page's engagement beacon (ViewerController.beacon). */
export const BEACON_PATH = '/s/_beacon';

/** The beacon's refusal of a body over MAX_BEACON_BYTES: 413, no body, like its other answers. */
export function answerBeaconError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') {
    answerRouteError(error, request, reply);
    return;
  }
  reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff').status(413).send();
}

function isBeacon(route: RouteOptions): boolean {
  return route.url === BEACON_PATH && [route.method].flat().includes('POST');
}

/**
 * Gives the beacon route a body limit of MAX_BEACON_BYTES, which Fastify enforces on the bytes it
 * reads: an announced Content-Length above it is refused before reading, and a chunked body
 * (no Content-Length) as soon as what arrived goes beyond it. Must run before the route is added,
 * after registerRouteErrorHandler (it replaces that route's error handler).
 */
export function limitBeaconBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (!isBeacon(route)) return;
    route.bodyLimit = MAX_BEACON_BYTES;
    route.errorHandler = answerBeaconError;
  });
}
