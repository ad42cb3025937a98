import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, nextCursorSchema, pageLimitSchema, REQUEST_STATES, requestSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceListRequestsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_list_requests',
    {
      title: 'List document requests',
      description: [
        'Lists your document requests, newest first, one page at a time (50 unless limit says otherwise): each with its state, slots taken (uploadCount of maxUploads), limits and upload page url.',
        'state keeps only OPEN, CLOSED, EXPIRED or FULL ones. Pass nextCursor back as cursor (with the same state) for the next page, until it is null.',
      ].join(' '),
      inputSchema: {
        state: z.enum(REQUEST_STATES).optional().describe('Only requests in this state'),
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
      },
      outputSchema: { requests: z.array(requestSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ state, limit, cursor }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/requests', { params: { query: { state, limit, cursor } } }))),
  );
}
