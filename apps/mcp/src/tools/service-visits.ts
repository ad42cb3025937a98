import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, nextCursorSchema, pageLimitSchema, visitSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceVisitsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_visits',
    {
      title: 'Visit log of a share',
      description: [
        "A share link's visit log, newest first, one page at a time: one row per admitted visit with time, masked network, referrer, browser, device, the signed-in e-mail (login-only links), whether it looked automated, and reading time and depth once the page reported them.",
        'Pass nextCursor back as cursor for the next page, until it is null. NOT_FOUND when the share is not yours.',
      ].join(' '),
      inputSchema: {
        shareId: z.string().min(1).describe('Id of the share'),
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
        from: z.string().min(1).optional().describe('Only visits at or after this instant (ISO 8601, e.g. 2025-01-31T00:00:00Z)'),
        to: z.string().min(1).optional().describe('Only visits before this instant (ISO 8601)'),
        automated: z.boolean().optional().describe('true: only automated visits (bots, scripts); false: only visits by people'),
      },
      outputSchema: { visits: z.array(visitSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, limit, cursor, from, to, automated }) =>
      runTool(context, () =>
        unwrap(
          context.client.GET('/api/v1/shares/{id}/visits', {
            params: {
              path: { id: shareId },
              query: { limit, cursor, from, to, automated: automated === undefined ? undefined : automated ? 'true' : 'false' },
            },
          }),
        ),
      ),
  );
}
