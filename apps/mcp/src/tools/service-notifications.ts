import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, nextCursorSchema, notificationSchema, pageLimitSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceNotificationsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_notifications',
    {
      title: 'List notifications',
      description: [
        "Your notifications, newest first: visits to shares whose notify policy is first or every, and daily digests (notify daily). Set a share's notify with service_update_share.",
        'Listing does not mark anything read. unreadCount counts every unread notification. Pass nextCursor back as cursor for the next page, until it is null.',
      ].join(' '),
      inputSchema: {
        unread: z.boolean().optional().describe('true: only unread notifications'),
        limit: pageLimitSchema(100, 'default 20'),
        cursor: cursorSchema,
      },
      outputSchema: {
        notifications: z.array(notificationSchema).describe('Newest first'),
        unreadCount: z.number().int().describe('Unread notifications of the account, over all pages'),
        nextCursor: nextCursorSchema,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ unread, limit, cursor }) =>
      runTool(context, () =>
        unwrap(
          context.client.GET('/api/v1/notifications', {
            params: { query: { limit, cursor, unread: unread === undefined ? undefined : unread ? 'true' : 'false' } },
          }),
        ),
      ),
  );
}
