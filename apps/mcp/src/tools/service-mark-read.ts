import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceMarkReadTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_mark_read',
    {
      title: 'Mark notifications read',
      description: [
        'Marks the notifications with the given ids read (ids from service_notifications), or every notification of the account when ids is omitted.',
        'Ids that are not yours or do not exist change nothing. Answers how many unread notifications remain.',
      ].join(' '),
      inputSchema: {
        ids: z.array(z.uuid()).min(1).max(500).optional().describe('Notification ids; omit to mark every notification read'),
      },
      outputSchema: { unreadCount: z.number().int().describe('Unread notifications of the account after marking') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ ids }) => runTool(context, () => unwrap(context.client.POST('/api/v1/notifications/read', { body: ids ? { ids } : {} }))),
  );
}
