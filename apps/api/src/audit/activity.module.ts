import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ActivityController } from './activity.controller.js';
import { ActivityService } from './activity.service.js';
import { AuditModule } from './audit.module.js';

/**
 * The console's Activity page and `GET /api/v1/activity`: an account reads its own audit trail. Apart from AuditModule so
 * that AuthModule can record into the trail while this route uses AuthModule's session guard.
 */
@Module({
  imports: [AuthModule, AuditModule],
  controllers: [ActivityController],
  providers: [ActivityService],
})
export class ActivityModule {}
