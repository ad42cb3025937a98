import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { activityEventSchema, cursorSchema, nextCursorSchema, pageLimitSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceActivityTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_activity',
    {
      title: 'Account activity',
      description: [
        "Your account's audit trail, newest first: sign-ins, API tokens, webhooks, shares made and revoked, deletions, restores and purges, two-factor and session changes, and what administrators did to the account.",
        "In a shared workspace the trail is the workspace's, each event naming its member (actor); pass actor (a userId from service_members) for one member's events.",
        'Pass nextCursor back as cursor for the next page, until it is null.',
      ].join(' '),
      inputSchema: {
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
        actor: z.uuid().optional().describe("Only this member's events (a userId from service_members)"),
      },
      outputSchema: { events: z.array(activityEventSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ limit, cursor, actor }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/activity', { params: { query: { limit, cursor, actor } } }))),
  );
}
