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
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];
export const AUDIT_ACTIONS = Object.values(AuditAction);
