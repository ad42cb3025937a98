import { randomUUID } from 'node:crypto';
import type { LogLevel, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormBody from '@fastify/formbody';
import { AppModule } from '../app.module.js';
import { ActingMemberInterceptor } from '../audit/acting-member.js';
import { ErrorEnvelopeFilter } from '../common/error-envelope.filter.js';
import { validationPipe } from '../common/validation-pipe.js';
import { registerJsonParser } from './json-body.js';
import type { Runtime } from '../common/runtime.js';
import { fastifyTrustProxy } from '../config/trust-proxy.js';
import { registerCors } from './cors.js';
import { answerClientError, answerFrameworkError } from './framework-errors.js';
import { JsonLogger } from '../logging/json-logger.js';
import { logsAsJson } from '../logging/log-format.js';
import { logLevels } from '../logging/log-levels.js';
import { RequestLog } from '../logging/request-log.js';
import { Metrics } from '../metrics/metrics.js';
import { observeRequests } from './request-observer.js';
import { registerRouteErrorHandler } from './route-errors.js';
import { registerSecurityHeaders } from './security-headers.js';
import { serveShareViewsDirectly } from '../viewer/viewer-routes.js';
import { limitBeaconBodies } from '../viewer/visit-log/beacon-body-limit.js';
import { ShareGateCache } from '../viewer/gate/share-gate-cache.js';
import { serveMeDirectly } from '../auth/me-route.js';
import { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import { forgetCachesOnWrites } from './forget-caches-on-writes.js';
import { acceptMultipart } from './multipart.js';

// Validate accepts 1 048 576 characters; JSON-escaped that can reach several bytes each.
const JSON_BODY_LIMIT = 8 * 1024 * 1024;

/** The logger Nest writes through: pino's JSON lines, or Nest's readable lines at the configured levels. */
export function appLogger(env: Runtime['env']): LoggerService | LogLevel[] | false {
  return logsAsJson(env) ? new JsonLogger(env.LOG_LEVEL) : logLevels(env.LOG_LEVEL);
}

/** The Nest application with everything the HTTP surface needs, not yet listening. */
export async function createApp(
  runtime: Runtime,
  options: { preview?: boolean; logger?: LoggerService | LogLevel[] | false } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Only a trusted proxy's X-Forwarded-For/-Proto/-Host count; a direct client cannot spoof them.
    trustProxy: fastifyTrustProxy(runtime.env.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // What the router and Node's HTTP parser refuse (undecodable path, oversized headers)
    // answers the same `{ error, code }` envelope as everything else.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(runtime), adapter, {
    logger: options.logger ?? appLogger(runtime.env),
    preview: options.preview,
    abortOnError: false,
    // Our own JSON parser (json-body.ts) and form parser replace Nest's defaults.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // First, so that every route gets the envelope for Fastify's own errors.
  registerRouteErrorHandler(fastify);
  limitBeaconBodies(fastify);
  serveShareViewsDirectly(fastify, app);
  forgetCachesOnWrites(fastify, app.get(ShareGateCache, { strict: false }), app.get(TokenIdentityCache, { strict: false }));
  serveMeDirectly(fastify, app);
  // Hooks that run on every request take Fastify's callback form: no promise per request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  const metrics = app.get(Metrics);
  const requestLog = new RequestLog(logsAsJson(runtime.env), runtime.env.LOG_LEVEL);
  observeRequests(fastify, (finished) => {
    metrics.observeRequest(finished.method, finished.route, finished.statusCode, finished.seconds);
    requestLog.write(finished);
  });
  registerCors(fastify);
  registerSecurityHeaders(fastify);
  registerJsonParser(fastify);
  await app.register(fastifyFormBody as never, { bodyLimit: 64 * 1024 } as never);
  await app.register(fastifyCookie as never, { secret: runtime.sessionSecret } as never);
  // Upload bodies stay unread until an upload handler streams them (files/upload-reader.ts).
  acceptMultipart(fastify);
  app.useGlobalFilters(new ErrorEnvelopeFilter());
  // A member acting in a shared workspace is named on the workspace's audit trail (audit/acting-member.ts).
  app.useGlobalInterceptors(new ActingMemberInterceptor());
  app.useGlobalPipes(validationPipe);
  return app;
}
