import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope, toEnvelope } from '../common/error-envelope.filter.js';

/** What Fastify raises inside a route before or around Nest's handler: body parsing, content type, limits, hooks. */
export function answerRouteError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  sendEnvelope(reply, toEnvelope(error));
}

/**
 * Gives every route `answerRouteError` as its own error handler, so those errors answer the
 * `{ error, code }` envelope. Per route, because a route takes its scope's handler when Fastify
 * loads it, which is before Nest installs its exception layer as the instance's handler at
 * init; a second instance-level handler would only override Nest's (warning FSTWRN004). Must
 * run before any route is added; a route that brings its own handler keeps it.
 */
export function registerRouteErrorHandler(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    route.errorHandler ??= answerRouteError;
  });
}
