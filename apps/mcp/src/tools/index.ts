import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../tool-context.js';
import { registerServiceAcceptancesTool } from './service-acceptances.js';
import { registerServiceActivityTool } from './service-activity.js';
import { registerServiceAnalyticsTool } from './service-analytics.js';
import { registerServiceCloseRequestTool } from './service-close-request.js';
import { registerServiceCreateFolderTool } from './service-create-folder.js';
import { registerServiceCreateRequestTool } from './service-create-request.js';
import { registerServiceDeleteTool } from './service-delete.js';
import { registerServiceFoldersTool } from './service-folders.js';
import { registerServiceGetRequestTool } from './service-get-request.js';
import { registerServiceGetShareTool } from './service-get-share.js';
import { registerServiceGetTool } from './service-get.js';
import { registerServiceInviteTool } from './service-invite.js';
import { registerServiceListInvitationsTool } from './service-list-invitations.js';
import { registerServiceListRequestsTool } from './service-list-requests.js';
import { registerServiceListSharesTool } from './service-list-shares.js';
import { registerServiceListTool } from './service-list.js';
import { registerServiceMoveTool } from './service-move.js';
import { registerServiceMarkReadTool } from './service-mark-read.js';
import { registerServiceMembersTool } from './service-members.js';
import { registerServiceNotificationsTool } from './service-notifications.js';
import { registerServicePurgeTool } from './service-purge.js';
import { registerServiceReadTool } from './service-read.js';
import { registerServiceRemoveMemberTool } from './service-remove-member.js';
import { registerServiceReportsTool } from './service-reports.js';
import { registerServiceRequestUploadsTool } from './service-request-uploads.js';
import { registerServiceRestoreTool } from './service-restore.js';
import { registerServiceReviewUploadTool } from './service-review-upload.js';
import { registerServiceRevokeInvitationTool } from './service-revoke-invitation.js';
import { registerServiceRevokeTool } from './service-revoke.js';
import { registerServiceSetRoleTool } from './service-set-role.js';
import { registerServiceShareFolderTool } from './service-share-folder.js';
import { registerServiceShareTool } from './service-share.js';
import { registerServiceTrashTool } from './service-trash.js';
import { registerServiceUpdateShareTool } from './service-update-share.js';
import { registerServiceUploadTool } from './service-upload.js';
import { registerServiceValidateTool } from './service-validate.js';
import { registerServiceVisitsTool } from './service-visits.js';
import { registerServiceWorkspaceTool } from './service-workspace.js';

export function registerTools(server: McpServer, context: ToolContext): void {
  // Documents
  registerServiceUploadTool(server, context);
  registerServiceValidateTool(server, context);
  registerServiceGetTool(server, context);
  registerServiceListTool(server, context);
  registerServiceReadTool(server, context);
  registerServiceMoveTool(server, context);
  // Folders and the trash
  registerServiceFoldersTool(server, context);
  registerServiceCreateFolderTool(server, context);
  registerServiceDeleteTool(server, context);
  registerServiceTrashTool(server, context);
  registerServiceRestoreTool(server, context);
  registerServicePurgeTool(server, context);
  // Share links
  registerServiceShareTool(server, context);
  registerServiceShareFolderTool(server, context);
  registerServiceListSharesTool(server, context);
  registerServiceGetShareTool(server, context);
  registerServiceUpdateShareTool(server, context);
  registerServiceRevokeTool(server, context);
  registerServiceVisitsTool(server, context);
  registerServiceAcceptancesTool(server, context);
  registerServiceAnalyticsTool(server, context);
  registerServiceReportsTool(server, context);
  // Document requests
  registerServiceCreateRequestTool(server, context);
  registerServiceListRequestsTool(server, context);
  registerServiceGetRequestTool(server, context);
  registerServiceCloseRequestTool(server, context);
  registerServiceRequestUploadsTool(server, context);
  registerServiceReviewUploadTool(server, context);
  // The workspace, its members and invitations
  registerServiceWorkspaceTool(server, context);
  registerServiceMembersTool(server, context);
  registerServiceInviteTool(server, context);
  registerServiceListInvitationsTool(server, context);
  registerServiceRevokeInvitationTool(server, context);
  registerServiceSetRoleTool(server, context);
  registerServiceRemoveMemberTool(server, context);
  // The account
  registerServiceNotificationsTool(server, context);
  registerServiceMarkReadTool(server, context);
  registerServiceActivityTool(server, context);
}
