import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { invitationSchema, nextCursorSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceListInvitationsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_list_invitations',
    {
      title: 'Pending invitations of the workspace',
      description: [
        'Lists the invitations of the workspace this token acts in that are still pending (not accepted, revoked or expired), newest first: address, role, when made and when they expire.',
        'The links themselves are shown only once, by service_invite. FORBIDDEN unless you are OWNER or ADMIN; a personal workspace has none.',
      ].join(' '),
      inputSchema: {},
      outputSchema: { invitations: z.array(invitationSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => runTool(context, () => unwrap(context.client.GET('/api/v1/workspace/invitations'))),
  );
}
