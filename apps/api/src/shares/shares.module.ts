import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConsoleSharesController } from './console-shares.controller.js';
import { ShareListRepository } from './share-list.repository.js';
import { SharePagesService } from './share-pages.service.js';
import { SharesController } from './shares.controller.js';
import { SharesRepository } from './shares.repository.js';
import { SharesService } from './shares.service.js';
import { ShareVisitsService } from './share-visits.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ShareVisitLogRepository } from './share-visit-log.repository.js';
import { ShareVisitLogService } from './share-visit-log.service.js';
import { ShareEditorService } from './share-editor.service.js';
import { ShareAnalyticsRepository } from './share-analytics.repository.js';
import { ShareAnalyticsService } from './share-analytics.service.js';
import { SharePoliciesRepository } from './share-policies.repository.js';
import { ShareAcceptancesRepository } from './share-acceptances.repository.js';
import { ShareAcceptancesService } from './share-acceptances.service.js';
import { ViewerModule } from '../viewer/viewer.module.js';

/**
 * Shares of files: the REST routes, the console's twin routes and visit statistics. Exports
 * SharesService so an upload can create its share inside the upload's own transaction.
 */
@Module({
  imports: [AuthModule, AuditModule, ViewerModule],
  controllers: [SharesController, ConsoleSharesController],
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
