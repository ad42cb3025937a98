import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AccountStatusService } from './account-status.service.js';
import { AdminGuard } from './admin.guard.js';
import { AdminUsersRepository } from './admin-users.repository.js';
import { AdminAuditRepository } from './admin-audit.repository.js';
import { AdminAuditService } from './admin-audit.service.js';
import { AdminInstanceController, AdminUsersController } from './admin.controller.js';
import { AdminUsersService } from './admin-users.service.js';
import { AdminWorkspacesController } from './admin-workspaces.controller.js';
import { AdminWorkspacesRepository } from './admin-workspaces.repository.js';
import { AdminWorkspacesService } from './admin-workspaces.service.js';
import { InstanceAdminService } from './instance-admin.service.js';
import { InstanceStatsRepository } from './instance-stats.repository.js';
import { InvitesRepository } from './invites.repository.js';

/**
 * Running the instance: administrators manage accounts, registration and invitations, and read
 * the instance's totals and everyone's audit trail, under `/api/admin`. Another feature that
 * stops accounts imports this module for AccountStatusService; its controllers use AdminGuard
 * (and import AuthModule, where the guard's session check lives).
 */
@Module({
  imports: [AuthModule, AuditModule, WorkspacesModule],
  controllers: [AdminUsersController, AdminWorkspacesController, AdminInstanceController],
  providers: [
    AdminUsersRepository,
    AccountStatusService,
    AdminGuard,
    AdminUsersService,
    AdminWorkspacesRepository,
    AdminWorkspacesService,
    InstanceAdminService,
    InvitesRepository,
    InstanceStatsRepository,
    AdminAuditRepository,
    AdminAuditService,
  ],
  exports: [AccountStatusService, AdminGuard],
})
export class AdminModule {}
