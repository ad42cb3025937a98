import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, pageLimitSchema, shareSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceListSharesTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_list_shares',
    {
      title: 'List share links',
      description: [
        'Lists your share links, newest first, including revoked and used-up ones (see revokedAt, consumedAt, expiresAt): all of them, with fileId only those of one file, or with folderId only the collections of one folder.',
        'Each share carries its policies and visit counts; the view URL is {service}/s/<ownerSegment>/<token>.',
        'Without limit and cursor the answer holds every share; with either it holds one page and nextCursor: pass that back as cursor (with the same fileId / folderId) until it is null.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).optional().describe('Only the shares of this file'),
        folderId: z.string().min(1).optional().describe('Only the collection shares of this folder'),
        limit: pageLimitSchema(200, 'asks for one page instead of the whole list (50 when only cursor is given)'),
        cursor: cursorSchema,
      },
      outputSchema: {
        shares: z.array(shareSchema),
        nextCursor: z
          .string()
          .nullable()
          .optional()
          .describe('Present when limit or cursor was given: the cursor of the next page, null on the last page'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ fileId, folderId, limit, cursor }) =>
      runTool(context, () =>
        unwrap(context.client.GET('/api/v1/shares', { params: { query: { fileId, folderId, limit, cursor } } })),
      ),
  );
}
