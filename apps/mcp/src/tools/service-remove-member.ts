import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceRemoveMemberTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_remove_member',
    {
      title: 'Remove a member from the workspace, or leave it',
      description: [
        'Removes a member from the workspace this token acts in; with your own userId you leave it (then this token stops working). From the next request on, their sessions no longer act in it and their tokens of it answer UNAUTHENTICATED; the documents, links and webhooks they made stay with the workspace.',
        'Only a new invitation they accept brings them back. An OWNER may remove anyone, an ADMIN anyone but an OWNER; the last OWNER cannot leave or be removed (CONFLICT).',
        'Errors: FORBIDDEN unless you are OWNER or ADMIN (leaving needs neither) or for a read-only token, NOT_FOUND when userId is not a member of this workspace (from service_members), CONFLICT in a personal workspace.',
      ].join(' '),
      inputSchema: { userId: z.string().min(1).describe("The member's userId (from service_members); your own to leave") },
      outputSchema: {
        removed: z.literal(true).describe('The service answered 204: the member is gone'),
        userId: z.string().describe('The member removed'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ userId }) =>
      runTool(context, async () => {
        // The service answers 204 without a body: the tool answers what it did.
        await unwrap(context.client.DELETE('/api/v1/workspace/members/{userId}', { params: { path: { userId } } }));
        return { removed: true as const, userId };
      }),
  );
}
