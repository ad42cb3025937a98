import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { analyticsSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceAnalyticsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_analytics',
    {
      title: 'Visit analytics of a share',
      description: [
        "Summarizes a share link's logged visits over the last `days` days: visits per day (people and automated), median reading time, completion rate, reading depth, top referrers and devices, and reading by section (for each h1–h3 section of the document, or of each document read in a collection: readers and median seconds on screen).",
        'NOT_FOUND when the share is not yours.',
      ].join(' '),
      inputSchema: {
        shareId: z.string().min(1).describe('Id of the share'),
        days: z.number().int().min(1).max(365).optional().describe('Days to cover, ending today (1..365; default 30)'),
      },
      outputSchema: analyticsSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, days }) =>
      runTool(context, () =>
        unwrap(context.client.GET('/api/v1/shares/{id}/analytics', { params: { path: { id: shareId }, query: { days } } })),
      ),
  );
}
