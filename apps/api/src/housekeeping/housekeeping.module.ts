import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ViewerModule } from '../viewer/viewer.module.js';
import { Housekeeping } from './housekeeping.js';
import { HousekeepingRepository } from './housekeeping.repository.js';
import { AuditModule } from '../audit/audit.module.js';

/** Periodic deletion of expired and idle rows (worker processes). */
@Module({
  imports: [AuditModule, AuthModule, NotificationsModule, RateLimitModule, ViewerModule],
  providers: [Housekeeping, HousekeepingRepository],
})
export class HousekeepingModule {}
