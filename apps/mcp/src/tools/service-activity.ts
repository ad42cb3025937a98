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
        'Pass nextCursor back as cursor for the next page, until it is null.',
      ].join(' '),
      inputSchema: { limit: pageLimitSchema(200, 'default 50'), cursor: cursorSchema },
      outputSchema: { events: z.array(activityEventSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ limit, cursor }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/activity', { params: { query: { limit, cursor } } }))),
  );
}
