import type { FastifyInstance } from 'fastify';

const REST_PREFIXES = ['/v1/', '/api/v1/'];

function isRest(url: string): boolean {
  return REST_PREFIXES.some((prefix) => url.startsWith(prefix)) || url === '/v1' || url === '/api/v1';
}

/**
 * CORS for the bearer-token REST API exactly as the contract states: any origin, the
 * Authorization and Content-Type headers, never credentials. Preflights answer here.
 */
export function registerCors(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!isRest(request.url)) {
      done();
      return;
    }
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    reply.header('Access-Control-Expose-Headers', 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, X-Request-Id');
    if (request.method === 'OPTIONS') {
      reply
        .header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
        .header('Access-Control-Max-Age', '600')
        .status(204)
        .send();
      // Answered: the request goes no further (no done()).
      return;
    }
    done();
  });
}
