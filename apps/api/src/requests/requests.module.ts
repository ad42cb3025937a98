import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { FilesModule } from '../files/files.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ScanModule } from '../scan/scan.module.js';
import { ViewerModule } from '../viewer/viewer.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { RequestPageController } from './request-page.controller.js';
import { RequestPortalService } from './request-portal.service.js';
import { RequestSettlements } from './request-settlements.js';
import { RequestsController } from './requests.controller.js';
import { RequestsRepository } from './requests.repository.js';
import { RequestsService } from './requests.service.js';

/**
 * Document requests: the owner's operations (one controller on the token API and the console),
 * the public page that takes uploads into the owner's folder, and what follows a settled scan.
 */
@Module({
  imports: [AuthModule, AuditModule, FilesModule, NotificationsModule, RateLimitModule, ScanModule, ViewerModule, WebhooksModule],
  controllers: [RequestsController, RequestPageController],
  providers: [RequestsRepository, RequestsService, RequestPortalService, RequestSettlements],
})
export class RequestsModule {}
