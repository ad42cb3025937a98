import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpConfig } from './config.js';
import { packageInfo } from './package-info.js';
import { registerDocumentResources } from './resources/documents.js';
import { createToolContext } from './tool-context.js';
import { registerTools } from './tools/index.js';

const INSTRUCTIONS = [
  'Sharedown hosts single text documents (HTML, Markdown, plain text) and makes share links for them.',
  'Typical flow: service_validate (optional) → service_upload with `share` to get a public URL in one call,',
  'or service_upload then service_share.',
  'Documents: service_list and service_get read metadata, service_read returns the text (also the resource sharedown://files/{id}), service_move renames or moves a file or folder.',
  'Folders: service_folders lists the tree, service_create_folder makes one.',
  'Trash: service_delete moves a file or folder to the trash and revokes its links, service_trash lists it, service_restore brings an item back, service_purge deletes for good.',
  'Share links: service_share_folder shares a folder as one link (a collection), service_list_shares lists them, service_get_share shows one with all its policies, service_update_share changes them, service_revoke ends one, service_visits and service_analytics report visits, service_reports lists abuse reports.',
  "Workspace: every tool acts in the workspace the token was made in, with its creator's role there (service_workspace shows it); service_members lists the members, service_invite invites an address with a role, service_set_role and service_remove_member change them, service_list_invitations and service_revoke_invitation manage pending invitations.",
  'Account: service_notifications (service_mark_read marks them read) and service_activity.',
  'Errors come back as {code, status, message}; code UNAVAILABLE means the service could not be reached.',
].join(' ');

/** One MCP server bound to one service address and token. */
export function createServer(config: McpConfig): McpServer {
  const server = new McpServer(
    { name: packageInfo.name, version: packageInfo.version, title: 'Sharedown' },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  const context = createToolContext(config);
  registerTools(server, context);
  registerDocumentResources(server, context);
  return server;
}
