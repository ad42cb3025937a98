import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module.js';
import { EmailModule } from './auth/email/email.module.js';
import { OidcModule } from './auth/oidc/oidc.module.js';
import { SignInModule } from './auth/sign-in.module.js';
import { type Runtime } from './common/runtime.js';
import { ConfigModule } from './config/config.module.js';
import { ConsoleStaticModule } from './console-static/console-static.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ExportModule } from './export/export.module.js';
import { FilesModule } from './files/files.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { HousekeepingModule } from './housekeeping/housekeeping.module.js';
import { ScanModule } from './scan/scan.module.js';
import { RequestsModule } from './requests/requests.module.js';
import { WorkspacesModule } from './workspaces/workspaces.module.js';
import { SharesModule } from './shares/shares.module.js';
import { ValidateModule } from './validate/validate.module.js';
import { ViewerModule } from './viewer/viewer.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { ActivityModule } from './audit/activity.module.js';
import { AdminModule } from './admin/admin.module.js';
import { ReportsModule } from './reports/reports.module.js';

/**
 * The whole service: the two global infrastructure modules (configuration, database) and every
 * feature module. Each feature module imports what it uses itself; this list only says which
 * features run. Not global: nothing should reach into it.
 */
@Module({})
export class AppModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(runtime),
        DatabaseModule,
        MetricsModule,
        HealthModule,
        AuthModule,
        SignInModule,
        EmailModule,
        OidcModule,
        ScanModule,
        FilesModule,
        SharesModule,
        RequestsModule,
        WorkspacesModule,
        ExportModule,
        ValidateModule,
        WebhooksModule,
        ViewerModule,
        ActivityModule,
        NotificationsModule,
        AdminModule,
        ReportsModule,
        HousekeepingModule,
        ConsoleStaticModule,
      ],
    };
  }
}
