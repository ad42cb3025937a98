import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { WorkspaceController } from './workspace.controller.js';
import { WorkspacesController } from './workspaces.controller.js';
import { WorkspacesRepository } from './workspaces.repository.js';
import { WorkspacesService } from './workspaces.service.js';

/** Shared workspaces, their members, roles and invitations (the guards resolve who acts where: auth/workspace-access.ts). */
@Module({
  imports: [AuthModule, AuditModule, NotificationsModule],
  controllers: [WorkspaceController, WorkspacesController],
  providers: [WorkspacesRepository, WorkspacesService],
  exports: [WorkspacesService],
})
export class WorkspacesModule {}
