import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { ViewerHttp } from './viewer-http.js';
import { ViewerPresenter } from './viewer-presenter.js';
import { ViewerService } from './viewer.service.js';

/** The share view routes of ViewerController (`view` and `legacyView`), as Fastify sees them. */
const VIEW_ROUTES = new Set(['/s/:segment/:token', '/s/:token']);

/**
 * Opening a share link is the service's hottest route. ViewerController declares it (and its
 * OpenAPI description); this serves its GET with a plain Fastify handler that calls the same
 * viewer code, instead of through Nest's per-request pipeline (guards, pipes, interceptors and
 * the exception zone, none of which the viewer uses: it answers its own errors as HTML pages).
 * Fastify's hooks (request id, security headers) still run. Must be registered before Nest
 * adds its routes; the viewer's providers are looked up on the first view.
 */
export function serveShareViewsDirectly(fastify: FastifyInstance, app: INestApplicationContext): void {
  let viewer: { service: ViewerService; presenter: ViewerPresenter; http: ViewerHttp } | null = null;
  const view: RouteHandlerMethod = async (request: FastifyRequest, reply: FastifyReply) => {
    viewer ??= {
      service: app.get(ViewerService, { strict: false }),
      presenter: app.get(ViewerPresenter, { strict: false }),
      http: app.get(ViewerHttp, { strict: false }),
    };
    const { service, presenter, http } = viewer;
    const { segment, token } = request.params as { segment?: string; token: string };
    await http.answer(request, reply, async () => {
      const viewerRequest = http.toViewerRequest(request);
      return presenter.view(viewerRequest, await service.view(viewerRequest, segment ?? null, token));
    });
    return reply;
  };
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (VIEW_ROUTES.has(route.url ?? '') && methods.every((method) => method === 'GET' || method === 'HEAD')) route.handler = view;
  });
}
