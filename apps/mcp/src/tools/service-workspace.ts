import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { workspaceSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceWorkspaceTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_workspace',
    {
      title: 'The workspace this token acts in',
      description: [
        "Returns the workspace every tool of this server acts in (the one the API token was made in): its id, name, URL segment (its links are {service}/s/<segment>/<token>), whether it is personal (an account's own, with no other members) or shared, your role in it, its storage quota and use, and how many members it has.",
        'Your role decides what the other tools may do: OWNER and ADMIN manage members and invitations, EDITOR changes documents and links, VIEWER only reads.',
      ].join(' '),
      inputSchema: {},
      outputSchema: { workspace: workspaceSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => runTool(context, () => unwrap(context.client.GET('/api/v1/workspace'))),
  );
}
