import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { ViewerController } from './viewer.controller.js';

type Params = Record<string, string>;

/** The hot GET routes of ViewerController, as Fastify sees them, and the method serving each. */
const DIRECT_ROUTES: Record<
  string,
  (controller: ViewerController, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<void>
> = {
  '/s/:segment/:token': (controller, params, request, reply) => controller.view(params.segment!, params.token!, request, reply),
  '/s/:token': (controller, params, request, reply) => controller.legacyView(params.token!, request, reply),
  '/s/:segment/:token/d/:fileId': (controller, params, request, reply) =>
    controller.documentView(params.segment!, params.token!, params.fileId!, request, reply),
  '/s/:token/d/:fileId': (controller, params, request, reply) =>
    controller.legacyDocumentView(params.token!, params.fileId!, request, reply),
  '/s/_render/:ticket': (controller, params, request, reply) => controller.render(params.ticket!, request, reply),
};

/**
 * Opening a share link (and an HTML share's frame) is the service's hottest path.
 * ViewerController declares these routes (and their OpenAPI description); their GET is served by
 * a plain Fastify handler that calls the same controller method, instead of through Nest's
 * per-request pipeline (guards, pipes, interceptors and the exception zone, none of which these
 * methods use: they take their parameters as strings and answer their own errors as HTML pages).
 * Fastify's hooks (request id, security headers) still run. Must be registered before Nest adds
 * its routes; the controller is looked up on the first request.
 */
export function serveShareViewsDirectly(fastify: FastifyInstance, app: INestApplicationContext): void {
  let controller: ViewerController | null = null;
  fastify.addHook('onRoute', (route) => {
    const serve = DIRECT_ROUTES[route.url ?? ''];
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!serve || !methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    // Not an async function, nor are the controller methods in between: each such level would keep a
    // frame and a promise of its own alive while the view waits for the database. Fastify takes the
    // returned promise, and finds the reply already sent when it settles.
    const handler: RouteHandlerMethod = (request, reply) => {
      controller ??= app.get(ViewerController, { strict: false });
      return serve(controller!, request.params as Params, request, reply);
    };
    route.handler = handler;
  });
}
