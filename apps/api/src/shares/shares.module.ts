import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConsoleSharesController } from './console-shares.controller.js';
import { ShareListRepository } from './share-list.repository.js';
import { SharePagesService } from './share-pages.service.js';
import { SharesController } from './shares.controller.js';
import { TokenSharesController } from './token-shares.controller.js';
import { SharesRepository } from './shares.repository.js';
import { SharesService } from './shares.service.js';
import { ShareVisitsService } from './analytics/share-visits.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ShareVisitLogRepository } from './analytics/share-visit-log.repository.js';
import { ShareVisitLogService } from './analytics/share-visit-log.service.js';
import { ShareEditorService } from './share-editor.service.js';
import { ShareAnalyticsRepository } from './analytics/share-analytics.repository.js';
import { ShareAnalyticsService } from './analytics/share-analytics.service.js';
import { SharePoliciesRepository } from './share-policies.repository.js';
import { ShareAcceptancesRepository } from './analytics/share-acceptances.repository.js';
import { ShareAcceptancesService } from './analytics/share-acceptances.service.js';
import { ViewerModule } from '../viewer/viewer.module.js';

/**
 * Shares of files and collections: one controller for both doors, each door's own list and visit routes,
 * and visit statistics (analytics/). Exports
 * SharesService so an upload can create its share inside the upload's own transaction.
 */
@Module({
  imports: [AuthModule, AuditModule, ViewerModule],
  // SharesController serves both doors; the other two, each door's own list and visit routes.
  controllers: [SharesController, TokenSharesController, ConsoleSharesController],
  providers: [
    SharesService,
    SharesRepository,
    ShareVisitsService,
    SharePagesService,
    ShareListRepository,
    ShareVisitLogRepository,
    ShareVisitLogService,
    SharePoliciesRepository,
    ShareEditorService,
    ShareAnalyticsRepository,
    ShareAnalyticsService,
    ShareAcceptancesRepository,
    ShareAcceptancesService,
  ],
  exports: [SharesService],
})
export class SharesModule {}
