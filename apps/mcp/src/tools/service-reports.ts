import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, nextCursorSchema, pageLimitSchema, reportSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceReportsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_reports',
    {
      title: 'Abuse reports on a share',
      description: [
        "The abuse reports visitors filed against one of your share links, newest first: the reason, the reporter's masked network and the report's state (an administrator may dismiss it or disable the link).",
        'Pass nextCursor back as cursor for the next page, until it is null. NOT_FOUND when the share is not yours.',
      ].join(' '),
      inputSchema: {
        shareId: z.string().min(1).describe('Id of the share'),
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
      },
      outputSchema: { reports: z.array(reportSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, limit, cursor }) =>
      runTool(context, () =>
        unwrap(
          context.client.GET('/api/v1/shares/{id}/reports', { params: { path: { id: shareId }, query: { limit, cursor } } }),
        ),
      ),
  );
}
