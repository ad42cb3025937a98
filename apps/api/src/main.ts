import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { InvalidEnvironmentError, loadEnv, type Env } from './config/env.js';
import { loadSessionSecret } from './config/session-secret.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres.js';
import { guardPostgresClients } from './database/pg-client-guard.js';
import { appLogger, createApp } from './http/create-app.js';
import { buildOpenApiDocument } from './openapi/openapi.js';

function readEnv(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}

const SHUTDOWN_GRACE_MS = 15_000;

/**
 * Owns the process lifecycle: a signal at any point (even during start-up) drains
 * requests and jobs first, then stops the embedded database, then exits.
 */
class Lifecycle {
  private readonly logger = new Logger('Sharedown');
  embedded?: EmbeddedDatabase;
  app?: NestFastifyApplication;
  private stopping?: Promise<void>;

  constructor() {
    process.once('SIGTERM', () => void this.stop('SIGTERM').then(() => process.exit(0)));
    process.once('SIGINT', () => void this.stop('SIGINT').then(() => process.exit(0)));
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.log(`${reason}: draining requests and jobs`);
      const drained = this.app?.close().catch((error: unknown) => this.logger.error(String(error)));
      // A dependency that stopped answering (Redis, a hung receiver) must not keep the
      // process alive forever: after the grace period it stops anyway.
      const gracePeriod = new Promise<void>((resolve) =>
        setTimeout(() => {
          this.logger.warn(`still draining after ${SHUTDOWN_GRACE_MS / 1000} s: stopping anyway`);
          resolve();
        }, SHUTDOWN_GRACE_MS).unref(),
      );
      await Promise.race([drained, gracePeriod]);
      await this.embedded?.stop().catch(() => undefined);
    })();
    return this.stopping;
  }
}

async function bootstrap(lifecycle: Lifecycle, env: Env, logger: ReturnType<typeof appLogger>): Promise<void> {
  const log = new Logger('Sharedown');
  if (!env.DATABASE_URL) lifecycle.embedded = await startEmbeddedPostgres(env.DATA_DIR);
  if (lifecycle.isStopping) return;
  const runtime = {
    env,
    databaseUrl: env.DATABASE_URL ?? lifecycle.embedded!.url,
    sessionSecret: await loadSessionSecret(env),
  };
  if (!env.CLAMD_HOST) {
    log.warn(
      'CLAMD_HOST is not set: uploads are scanned by the builtin EICAR-only scanner. Set CLAMD_HOST for real antivirus scanning.',
    );
  }
  lifecycle.app = await createApp(runtime, { logger });
  if (lifecycle.isStopping) return;

  if (env.ROLE === 'worker') {
    await lifecycle.app.init();
    log.log('worker started (no HTTP listener)');
    return;
  }
  const app = lifecycle.app;
  const document = buildOpenApiDocument(app);
  app
    .getHttpAdapter()
    .getInstance()
    .get('/api/openapi.json', async () => document);
  SwaggerModule.setup('api/docs', app, document, { useGlobalPrefix: false, raw: false });
  await app.listen({ port: env.PORT, host: env.HOST });
  log.log(`Sharedown is running (role ${env.ROLE})`);
  log.log(`  console:  ${env.PUBLIC_URL}/`);
  log.log(`  REST API: ${env.PUBLIC_URL}/api/v1  (also ${env.PUBLIC_URL}/v1)`);
  log.log(`  API docs: ${env.PUBLIC_URL}/api/docs  (OpenAPI: ${env.PUBLIC_URL}/api/openapi.json)`);
  log.log(`  health:   ${env.PUBLIC_URL}/healthz`);
}

const env = readEnv();
guardPostgresClients();
const logger = appLogger(env);
Logger.overrideLogger(logger === false ? [] : logger);
const lifecycle = new Lifecycle();
bootstrap(lifecycle, env, logger).catch(async (error: unknown) => {
  console.error('Sharedown failed to start:', error instanceof Error ? error.message : error);
  await lifecycle.stop('start-up failure');
  process.exit(1);
});
