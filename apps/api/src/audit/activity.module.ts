import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ActivityController } from './activity.controller.js';
import { AuditModule } from './audit.module.js';

/**
 * The console's Activity page: an account reads its own audit trail. Apart from AuditModule so
 * that AuthModule can record into the trail while this route uses AuthModule's session guard.
 */
@Module({ imports: [AuthModule, AuditModule], controllers: [ActivityController] })
export class ActivityModule {}
