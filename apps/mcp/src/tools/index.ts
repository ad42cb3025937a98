import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../tool-context.js';
import { registerServiceGetTool } from './service-get.js';
import { registerServiceListTool } from './service-list.js';
import { registerServiceRevokeTool } from './service-revoke.js';
import { registerServiceShareTool } from './service-share.js';
import { registerServiceUploadTool } from './service-upload.js';
import { registerServiceValidateTool } from './service-validate.js';

export function registerTools(server: McpServer, context: ToolContext): void {
  registerServiceUploadTool(server, context);
  registerServiceShareTool(server, context);
  registerServiceRevokeTool(server, context);
  registerServiceGetTool(server, context);
  registerServiceListTool(server, context);
  registerServiceValidateTool(server, context);
}
