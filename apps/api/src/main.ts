import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { InvalidEnvironmentError, loadEnv, type Env } from './config/env.js';
import { loadSessionSecret } from './config/session-secret.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres.js';
import { createApp, logLevels } from './http/create-app.js';
import { buildOpenApiDocument } from './openapi/openapi.js';

async function bootstrap(): Promise<void> {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const levels = logLevels(env.LOG_LEVEL);
  Logger.overrideLogger(levels === false ? [] : levels);
  const logger = new Logger('Sharedown');
  let embedded: EmbeddedDatabase | undefined;
  if (!env.DATABASE_URL) embedded = await startEmbeddedPostgres(env.DATA_DIR);
  const runtime = {
    env,
    databaseUrl: env.DATABASE_URL ?? embedded!.url,
    sessionSecret: await loadSessionSecret(env),
  };
  if (!env.CLAMD_HOST) {
    logger.warn('CLAMD_HOST is not set: uploads are scanned by the builtin EICAR-only scanner. Set CLAMD_HOST for real antivirus scanning.');
  }

  const app = await createApp(runtime).catch(async (error: unknown) => {
    await embedded?.stop();
    throw error;
  });
  const stopEmbedded = async () => {
    await embedded?.stop().catch(() => undefined);
    embedded = undefined;
  };
  process.once('exit', () => void stopEmbedded());

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.log(`${signal}: draining requests and jobs`);
    await app.close().catch((error: unknown) => logger.error(String(error)));
    await stopEmbedded();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  if (env.ROLE === 'worker') {
    await app.init();
    logger.log('worker started (no HTTP listener)');
    return;
  }
  const document = buildOpenApiDocument(app);
  app.getHttpAdapter().getInstance().get('/api/openapi.json', async () => document);
  SwaggerModule.setup('api/docs', app, document, { useGlobalPrefix: false, raw: false });
  await app.listen({ port: env.PORT, host: env.HOST });
  logger.log(`Sharedown is running (role ${env.ROLE})`);
  logger.log(`  console:  ${env.PUBLIC_URL}/`);
  logger.log(`  REST API: ${env.PUBLIC_URL}/api/v1  (also ${env.PUBLIC_URL}/v1)`);
  logger.log(`  API docs: ${env.PUBLIC_URL}/api/docs  (OpenAPI: ${env.PUBLIC_URL}/api/openapi.json)`);
  logger.log(`  health:   ${env.PUBLIC_URL}/healthz`);
}

bootstrap().catch((error: unknown) => {
  console.error('Sharedown failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
