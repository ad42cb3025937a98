import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpConfig } from './config.js';
import { packageInfo } from './package-info.js';
import { createToolContext } from './tool-context.js';
import { registerTools } from './tools/index.js';

const INSTRUCTIONS = [
  'Sharedown hosts single text documents (HTML, Markdown, plain text) and makes share links for them.',
  'Typical flow: service_validate (optional) → service_upload with `share` to get a public URL in one call,',
  'or service_upload then service_share. service_list and service_get read metadata; service_revoke ends a link.',
  'Errors come back as {code, status, message}; code UNAVAILABLE means the service could not be reached.',
].join(' ');

/** One MCP server bound to one service address and token. */
export function createServer(config: McpConfig): McpServer {
  const server = new McpServer(
    { name: packageInfo.name, version: packageInfo.version, title: 'Sharedown' },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  registerTools(server, createToolContext(config));
  return server;
}
