import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AdminReportsController } from './admin-reports.controller.js';
import { AdminReportsService } from './admin-reports.service.js';
import { ReportsRepository } from './reports.repository.js';
import { ShareReportsController } from './share-reports.controller.js';
import { ShareReportsService } from './share-reports.service.js';

/**
 * Abuse reports after a visitor files them (the viewer's report form writes them): the
 * administrators' queue under `/api/admin/reports` and each owner's view of their own shares'.
 */
@Module({
  imports: [AuthModule, AuditModule, AdminModule],
  controllers: [AdminReportsController, ShareReportsController],
  providers: [ReportsRepository, AdminReportsService, ShareReportsService],
})
export class ReportsModule {}
