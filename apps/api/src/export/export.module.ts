import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { SharesModule } from '../shares/shares.module.js';
import { ExportController } from './export.controller.js';
import { ExportRepository } from './export.repository.js';
import { ExportService } from './export.service.js';

/** An account's own documents, versions and share list as one zip (API, console and CLI). */
@Module({
  imports: [AuthModule, SharesModule],
  controllers: [ExportController],
  providers: [ExportRepository, ExportService],
})
export class ExportModule {}
