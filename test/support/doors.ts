/**
 * The four doors of every console operation: for each route the console calls, the REST route
 * an API token calls, the MCP tool and the CLI command that do the same through that route, or
 * the reason it has none. The parity test (e2e/door-parity.e2e.ts) reads the console's routes
 * from the OpenAPI document and fails when one is in neither column, when a named REST route is
 * not a bearer route of the document, a named tool is not offered by the MCP server, or a named
 * command is not a command of the CLI.
 */
/** A door that is not there, and why. */
export interface NoDoor {
  none: string;
}

export interface Doors {
  /** `METHOD /api/v1/...` of the token route, as in the OpenAPI document. */
  rest: string;
  /**
   * The MCP tool's name; several when one route serves what the tools keep apart (a file's link is
   * the spec's service_share, a folder's is service_share_folder: the spec's tools keep their inputs).
   */
  mcp: string | string[] | NoDoor;
  /** The CLI command's words after `sharedown` (flags are not part of it). */
  cli: string | NoDoor;
}

export type ParityRow = Doors | NoDoor;

// The spec's own exceptions, in its words.
const VERSIONS = 'file versions, overwrite and auto-rename are console-only (the spec)';
const SESSION = 'sign-in, two factors, sessions and the account belong to the console session (the spec)';
const TOKENS = 'tokens and webhooks are managed with a console session; tokens cannot manage tokens or webhooks (the spec)';
const ADMIN = "the administrators' area stays on the console session (the spec)";
const WORKSPACES =
  'a token acts in the one workspace it was made in: listing, creating, renaming and deleting workspaces, and opening or accepting an invitation (as the signed-in account of its address), belong to the console session (issue 41)';
const REQUEST_CHANGES =
  'issue 42 names no tool or command that changes a document request: a token changes one with PATCH /api/v1/requests/{id}; the tools and commands create, list, show, close and review';

/** Console route (`METHOD /api/...` as in the OpenAPI document) → its other doors. */
export const DOOR_PARITY: Record<string, ParityRow> = {
  // Files
  'GET /api/console/files': { rest: 'GET /api/v1/files', mcp: 'service_list', cli: 'files ls' },
  'POST /api/console/files': { rest: 'POST /api/v1/files', mcp: 'service_upload', cli: 'files upload' },
  'GET /api/console/files/{id}': { rest: 'GET /api/v1/files/{id}', mcp: 'service_get', cli: 'files get' },
  'PATCH /api/console/files/{id}': { rest: 'PATCH /api/v1/files/{id}', mcp: 'service_move', cli: 'files mv' },
  'DELETE /api/console/files/{id}': { rest: 'DELETE /api/v1/files/{id}', mcp: 'service_delete', cli: 'files rm' },
  'GET /api/console/files/{id}/content': { rest: 'GET /api/v1/files/{id}/content', mcp: 'service_read', cli: 'files cat' },
  'GET /api/console/files/{id}/versions': { none: VERSIONS },
  'POST /api/console/files/{id}/versions': { none: VERSIONS },
  'POST /api/console/files/{id}/versions/{versionId}/restore': { none: VERSIONS },
  // Folders
  'GET /api/console/folders': { rest: 'GET /api/v1/folders', mcp: 'service_folders', cli: 'folders ls' },
  'POST /api/console/folders': { rest: 'POST /api/v1/folders', mcp: 'service_create_folder', cli: 'folders create' },
  'PATCH /api/console/folders/{id}': { rest: 'PATCH /api/v1/folders/{id}', mcp: 'service_move', cli: 'folders mv' },
  'DELETE /api/console/folders/{id}': { rest: 'DELETE /api/v1/folders/{id}', mcp: 'service_delete', cli: 'folders rm' },
  // Trash
  'GET /api/console/trash': { rest: 'GET /api/v1/trash', mcp: 'service_trash', cli: 'trash ls' },
  'POST /api/console/trash/files/{id}/restore': {
    rest: 'POST /api/v1/trash/files/{id}/restore',
    mcp: 'service_restore',
    cli: 'trash restore',
  },
  'POST /api/console/trash/folders/{id}/restore': {
    rest: 'POST /api/v1/trash/folders/{id}/restore',
    mcp: 'service_restore',
    cli: 'trash restore',
  },
  'DELETE /api/console/trash/files/{id}': { rest: 'DELETE /api/v1/trash/files/{id}', mcp: 'service_purge', cli: 'trash purge' },
  'DELETE /api/console/trash/folders/{id}': {
    rest: 'DELETE /api/v1/trash/folders/{id}',
    mcp: 'service_purge',
    cli: 'trash purge',
  },
  'DELETE /api/console/trash': { rest: 'DELETE /api/v1/trash', mcp: 'service_purge', cli: 'trash purge' },
  // Shares
  'POST /api/console/shares': {
    rest: 'POST /api/v1/shares',
    mcp: ['service_share', 'service_share_folder'],
    cli: 'shares create',
  },
  'GET /api/console/shares': { rest: 'GET /api/v1/shares', mcp: 'service_list_shares', cli: 'shares ls' },
  'GET /api/console/shares/{id}': { rest: 'GET /api/v1/shares/{id}', mcp: 'service_get_share', cli: 'shares get' },
  'PATCH /api/console/shares/{id}': { rest: 'PATCH /api/v1/shares/{id}', mcp: 'service_update_share', cli: 'shares edit' },
  'GET /api/console/shares/{id}/policies': {
    rest: 'GET /api/v1/shares/{id}/policies',
    mcp: 'service_get_share',
    cli: 'shares get',
  },
  'DELETE /api/console/shares/{id}': { rest: 'DELETE /api/v1/shares/{id}', mcp: 'service_revoke', cli: 'shares revoke' },
  'GET /api/console/shares/totals': {
    none: "the console's dashboard sum over every share: GET /api/v1/shares, service_list_shares and shares ls give each share's counts",
  },
  // Visits, analytics, reports
  'GET /api/console/shares/{id}/visits': {
    none: "the console's hourly chart: GET /api/v1/shares/{id}/analytics (service_analytics, shares stats) gives the same visits per day, the visit log each one",
  },
  'GET /api/console/shares/{id}/analytics': {
    rest: 'GET /api/v1/shares/{id}/analytics',
    mcp: 'service_analytics',
    cli: 'shares stats',
  },
  'GET /api/console/shares/{id}/visit-log': {
    rest: 'GET /api/v1/shares/{id}/visits',
    mcp: 'service_visits',
    cli: 'shares visits',
  },
  'GET /api/console/shares/{id}/visit-log.csv': {
    rest: 'GET /api/v1/shares/{id}/visits.csv',
    mcp: 'service_visits',
    cli: 'shares visits',
  },
  'GET /api/console/shares/{id}/acceptances': {
    rest: 'GET /api/v1/shares/{id}/acceptances',
    mcp: 'service_acceptances',
    cli: 'shares acceptances',
  },
  'GET /api/console/shares/{id}/acceptances.csv': {
    rest: 'GET /api/v1/shares/{id}/acceptances.csv',
    mcp: 'service_acceptances',
    cli: 'shares acceptances',
  },
  'GET /api/console/shares/{id}/reports': {
    rest: 'GET /api/v1/shares/{id}/reports',
    mcp: 'service_reports',
    cli: 'shares reports',
  },
  // Document requests (issue 42)
  'POST /api/console/requests': { rest: 'POST /api/v1/requests', mcp: 'service_create_request', cli: 'requests create' },
  'GET /api/console/requests': { rest: 'GET /api/v1/requests', mcp: 'service_list_requests', cli: 'requests ls' },
  'GET /api/console/requests/{id}': { rest: 'GET /api/v1/requests/{id}', mcp: 'service_get_request', cli: 'requests show' },
  'PATCH /api/console/requests/{id}': {
    rest: 'PATCH /api/v1/requests/{id}',
    mcp: { none: REQUEST_CHANGES },
    cli: { none: REQUEST_CHANGES },
  },
  'DELETE /api/console/requests/{id}': {
    rest: 'DELETE /api/v1/requests/{id}',
    mcp: 'service_close_request',
    cli: 'requests close',
  },
  'GET /api/console/requests/{id}/uploads': {
    rest: 'GET /api/v1/requests/{id}/uploads',
    mcp: 'service_request_uploads',
    cli: 'requests uploads',
  },
  'POST /api/console/requests/{id}/uploads/{uploadId}/accept': {
    rest: 'POST /api/v1/requests/{id}/uploads/{uploadId}/accept',
    mcp: 'service_review_upload',
    cli: 'requests accept',
  },
  'POST /api/console/requests/{id}/uploads/{uploadId}/reject': {
    rest: 'POST /api/v1/requests/{id}/uploads/{uploadId}/reject',
    mcp: 'service_review_upload',
    cli: 'requests reject',
  },
  // The workspace a call acts in, its members and invitations (issue 41)
  'GET /api/console/workspace': { rest: 'GET /api/v1/workspace', mcp: 'service_workspace', cli: 'workspace' },
  'GET /api/console/workspace/members': {
    rest: 'GET /api/v1/workspace/members',
    mcp: 'service_members',
    cli: 'members ls',
  },
  'PATCH /api/console/workspace/members/{userId}': {
    rest: 'PATCH /api/v1/workspace/members/{userId}',
    mcp: 'service_set_role',
    cli: 'members role',
  },
  'DELETE /api/console/workspace/members/{userId}': {
    rest: 'DELETE /api/v1/workspace/members/{userId}',
    mcp: 'service_remove_member',
    cli: 'members rm',
  },
  'POST /api/console/workspace/invitations': {
    rest: 'POST /api/v1/workspace/invitations',
    mcp: 'service_invite',
    cli: 'members invite',
  },
  'GET /api/console/workspace/invitations': {
    rest: 'GET /api/v1/workspace/invitations',
    mcp: 'service_list_invitations',
    cli: 'invitations ls',
  },
  'DELETE /api/console/workspace/invitations/{id}': {
    rest: 'DELETE /api/v1/workspace/invitations/{id}',
    mcp: 'service_revoke_invitation',
    cli: 'invitations revoke',
  },
  'GET /api/workspaces': { none: WORKSPACES },
  'POST /api/workspaces': { none: WORKSPACES },
  'PATCH /api/workspaces/{id}': { none: WORKSPACES },
  'DELETE /api/workspaces/{id}': { none: WORKSPACES },
  'GET /api/invitations/{secret}': { none: WORKSPACES },
  'POST /api/invitations/{secret}/accept': { none: WORKSPACES },
  // Notifications and activity
  'GET /api/notifications': { rest: 'GET /api/v1/notifications', mcp: 'service_notifications', cli: 'notifications' },
  'POST /api/notifications/read': {
    rest: 'POST /api/v1/notifications/read',
    mcp: 'service_mark_read',
    cli: 'notifications',
  },
  'GET /api/audit': { rest: 'GET /api/v1/activity', mcp: 'service_activity', cli: 'activity' },
  // Validation and export
  'POST /api/console/validate': { rest: 'POST /api/v1/validate', mcp: 'service_validate', cli: 'validate' },
  'GET /api/console/export': {
    rest: 'GET /api/v1/export',
    mcp: { none: 'a zip is a download, not a tool answer: an MCP client reads each document with service_read' },
    cli: 'export',
  },
  // The console session's own business
  'PATCH /api/console/account': { none: SESSION },
  'GET /api/auth/session': { none: SESSION },
  'POST /api/auth/register': { none: SESSION },
  'POST /api/auth/login': { none: SESSION },
  'POST /api/auth/logout': { none: SESSION },
  'GET /api/auth/options': { none: SESSION },
  'POST /api/auth/password': { none: SESSION },
  'POST /api/auth/password-reset': { none: SESSION },
  'POST /api/auth/password-reset/confirm': { none: SESSION },
  'POST /api/auth/verify-email': { none: SESSION },
  'POST /api/auth/verify-email/send': { none: SESSION },
  'POST /api/auth/email-code': { none: SESSION },
  'POST /api/auth/email-code/verify': { none: SESSION },
  'GET /api/auth/oidc/start': { none: SESSION },
  'GET /api/auth/oidc/callback': { none: SESSION },
  'GET /api/auth/2fa': { none: SESSION },
  'POST /api/auth/2fa/setup': { none: SESSION },
  'POST /api/auth/2fa/enable': { none: SESSION },
  'POST /api/auth/2fa/disable': { none: SESSION },
  'POST /api/auth/2fa/recovery-codes': { none: SESSION },
  'GET /api/auth/sessions': { none: SESSION },
  'DELETE /api/auth/sessions': { none: SESSION },
  'DELETE /api/auth/sessions/{id}': { none: SESSION },
  'GET /api/tokens': { none: TOKENS },
  'POST /api/tokens': { none: TOKENS },
  'DELETE /api/tokens/{id}': { none: TOKENS },
  'GET /api/webhooks': { none: TOKENS },
  'POST /api/webhooks': { none: TOKENS },
  'PATCH /api/webhooks/{id}': { none: TOKENS },
  'DELETE /api/webhooks/{id}': { none: TOKENS },
  'GET /api/webhooks/{id}/deliveries': { none: TOKENS },
};

/** Routes of the administrators' area: all of `/api/admin`, one reason. */
export const ADMIN_PREFIX = '/api/admin/';
export const ADMIN_REASON = ADMIN;

export function hasDoors(row: ParityRow): row is Doors {
  return !('none' in row);
}
