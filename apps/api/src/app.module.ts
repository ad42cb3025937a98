import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module.js';
import { EmailModule } from './auth/email/email.module.js';
import { OidcModule } from './auth/oidc/oidc.module.js';
import { ConsoleStaticModule } from './console-static/console-static.module.js';
import { RUNTIME, type Runtime } from './common/runtime.js';
import { DatabaseModule } from './database/database.module.js';
import { FilesModule } from './files/files.module.js';
import { HealthController } from './health/health.controller.js';
import { HousekeepingModule } from './housekeeping/housekeeping.module.js';
import { QueueModule } from './queue/queue.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { ScanModule } from './scan/scan.module.js';
import { SharesModule } from './shares/shares.module.js';
import { ValidateModule } from './validate/validate.module.js';
import { ViewerModule } from './viewer/viewer.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/** Feature modules of the service; each later feature adds itself here. */
export const featureModules = [AuthModule, EmailModule, OidcModule, ScanModule, FilesModule, ValidateModule, WebhooksModule, ConsoleStaticModule, SharesModule, ViewerModule, HousekeepingModule];

@Module({})
export class AppModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [DatabaseModule, QueueModule, RateLimitModule, ...featureModules],
      controllers: [HealthController],
      providers: [{ provide: RUNTIME, useValue: runtime }],
      exports: [RUNTIME],
    };
  }
}
