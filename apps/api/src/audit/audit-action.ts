/** Every action the audit trail records; the names are part of the API (`GET /api/audit`). */
export const AuditAction = {
  signInSucceeded: 'sign_in.succeeded',
  signInFailed: 'sign_in.failed',
  signedOut: 'sign_out',
  sessionEnded: 'session.ended',
  otherSessionsEnded: 'session.others_ended',
  passwordChanged: 'password.changed',
  twoFactorEnabled: 'two_factor.enabled',
  twoFactorDisabled: 'two_factor.disabled',
  recoveryCodesRenewed: 'two_factor.recovery_codes_renewed',
  tokenCreated: 'token.created',
  tokenRevoked: 'token.revoked',
  webhookCreated: 'webhook.created',
  webhookDeleted: 'webhook.deleted',
  shareCreated: 'share.created',
  shareRevoked: 'share.revoked',
  fileDeleted: 'file.deleted',
  fileRestored: 'file.restored',
  filePurged: 'file.purged',
  folderDeleted: 'folder.deleted',
  folderRestored: 'folder.restored',
  folderPurged: 'folder.purged',
  trashEmptied: 'trash.emptied',
  // Document requests: the owner's actions, and an upload received (its actor is nobody: the uploader has no account here).
  requestCreated: 'request.created',
  requestClosed: 'request.closed',
  requestUploadReceived: 'request.upload_received',
  requestUploadAccepted: 'request.upload_accepted',
  requestUploadRejected: 'request.upload_rejected',
  // Workspaces: on the workspace's trail, the member who acted as `actorId` (a deletion on the deleter's).
  workspaceCreated: 'workspace.created',
  workspaceDeleted: 'workspace.deleted',
  workspaceInvited: 'workspace.invited',
  workspaceInvitationRevoked: 'workspace.invitation_revoked',
  workspaceJoined: 'workspace.joined',
  workspaceRoleChanged: 'workspace.role_changed',
  workspaceMemberRemoved: 'workspace.member_removed',
  workspaceLeft: 'workspace.left',
  // An administrator's actions: `actorId` is the administrator, the event is on the account acted
  // on; a deleted account's is on the administrator's own trail (the account's trail goes with it).
  adminUserDisabled: 'admin.user_disabled',
  adminUserEnabled: 'admin.user_enabled',
  adminQuotaChanged: 'admin.quota_changed',
  adminUserDeleted: 'admin.user_deleted',
  adminRegistrationChanged: 'admin.registration_changed',
  adminInviteCreated: 'admin.invite_created',
  adminInviteRevoked: 'admin.invite_revoked',
  // An administrator's resolution of an abuse report: on the administrator's own trail (the
  // owner learns the outcome from the share's reports, never who decided), the report as target.
  adminReportDismissed: 'admin.report_dismissed',
  adminReportShareDisabled: 'admin.report_share_disabled',
  adminReportOwnerDisabled: 'admin.report_owner_disabled',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];
export const AUDIT_ACTIONS = Object.values(AuditAction);
