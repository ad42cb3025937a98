import { type DynamicModule, Global, Module } from '@nestjs/common';
import { RUNTIME, type Runtime } from '../common/runtime.js';

/**
 * The runtime configuration (validated env, database address, secrets) that main.ts resolved
 * before Nest starts. Global on purpose: nearly every provider reads a setting from it, and a
 * configuration value is infrastructure, not a feature another module could own.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: RUNTIME, useValue: runtime }],
      exports: [RUNTIME],
    };
  }
}
