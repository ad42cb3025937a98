import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What one finished request came to: never its raw URL, which carries share tokens and tickets. */
export interface FinishedRequest {
  id: string;
  method: string;
  /** The route template (`/s/:segment/:token`), or `(unmatched)` when no route took the request. */
  route: string;
  statusCode: number;
  seconds: number;
}

export function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? '(unmatched)';
}

/** Calls `observe` once per answered request, for metrics and the request log. */
export function observeRequests(fastify: FastifyInstance, observe: (finished: FinishedRequest) => void): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    observe({
      id: request.id,
      method: request.method,
      route: routeOf(request),
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
