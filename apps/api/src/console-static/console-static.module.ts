import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_DIST, registerConsoleStatic } from './console-static.js';

@Module({})
export class ConsoleStaticModule implements OnModuleInit {
  private readonly logger = new Logger('Console');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const served = await registerConsoleStatic(fastify);
    if (!served) {
      this.logger.warn(`console not built (${CONSOLE_DIST} is missing): run "pnpm --filter @sharedown/console build"`);
    }
  }
}
