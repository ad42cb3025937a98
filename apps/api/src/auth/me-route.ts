import { Logger, type INestApplicationContext } from '@nestjs/common';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { answerException } from '../common/error-envelope.filter.js';
import { V1_PATHS } from '../common/v1-paths.js';
import type { AuthenticatedRequest } from './auth-context.js';
import { BearerAuthGuard } from './tokens/bearer-auth.guard.js';
import { MeController } from './me.controller.js';

const ME_ROUTES = new Set(V1_PATHS.map((path) => `/${path}/me`));

/**
 * `GET /v1/me` is what API clients call to check a token, often: MeController declares it (and its
 * OpenAPI description), and its GET is served by a plain Fastify handler doing exactly what Nest's
 * pipeline does for it (BearerAuthGuard: the token, its bucket, its headers; then the method;
 * errors as the envelope filter answers them), without the pipeline's per-request layers.
 * Fastify's hooks (request id, CORS, security headers, metrics) still run. Must be registered
 * before Nest adds its routes.
 */
export function serveMeDirectly(fastify: FastifyInstance, app: INestApplicationContext): void {
  const logger = new Logger('Errors');
  let guard: BearerAuthGuard | null = null;
  let controller: MeController | null = null;
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!ME_ROUTES.has(route.url ?? '') || !methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    const handler: RouteHandlerMethod = async (request, reply) => {
      guard ??= app.get(BearerAuthGuard, { strict: false });
      controller ??= app.get(MeController, { strict: false });
      const [bearer, me] = [guard!, controller!];
      const authenticated = request as AuthenticatedRequest;
      try {
        // The route asks for no scope: any live token may read its own account.
        await bearer.authorize(authenticated, reply, undefined);
        return me.me(authenticated.auth!);
      } catch (error) {
        answerException(error, request, reply, logger);
        return reply;
      }
    };
    route.handler = handler;
  });
}
