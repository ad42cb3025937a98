import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ErrorCode, defaultMessageOf } from '../common/error-code.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { MetricsAccess } from './metrics-access.js';
import { Metrics } from './metrics.js';

const NOT_FOUND_BODY = JSON.stringify({ error: defaultMessageOf(ErrorCode.NOT_FOUND), code: ErrorCode.NOT_FOUND });

/**
 * A worker has no HTTP listener of its own: with METRICS_TOKEN and METRICS_PORT set it serves
 * `GET /metrics` (and nothing else) on HOST:METRICS_PORT, with the same token check as the api.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: Metrics,
    @Inject(MetricsAccess) private readonly access: MetricsAccess,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { ROLE, METRICS_PORT, HOST } = this.runtime.env;
    if (ROLE !== 'worker' || !METRICS_PORT || !this.access.enabled) return;
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics' || !this.access.allows(request.headers.authorization)) {
        response.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(NOT_FOUND_BODY);
        return;
      }
      this.metrics.render().then(
        ({ contentType, body }) =>
          response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
        (error: unknown) => {
          this.logger.error(`metrics failed: ${String(error)}`);
          response.writeHead(500).end();
        },
      );
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(METRICS_PORT, HOST, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on http://${HOST}:${METRICS_PORT}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  }
}
