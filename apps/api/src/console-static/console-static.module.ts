import { Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { CONSOLE_DIST, registerConsoleStatic } from './console-static.js';

@Module({})
export class ConsoleStaticModule implements OnModuleInit {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const served = await registerConsoleStatic(fastify, new URL(this.runtime.env.RENDER_URL).origin);
    if (!served) {
      this.logger.warn(`console not built (${CONSOLE_DIST} is missing): run "pnpm --filter @sharedown/console build"`);
    }
  }
}
