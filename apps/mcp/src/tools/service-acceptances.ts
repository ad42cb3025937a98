import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { acceptanceSchema, cursorSchema, nextCursorSchema, pageLimitSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceAcceptancesTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_acceptances',
    {
      title: "Acceptances of a share's agreement",
      description: [
        "Who accepted a share link's agreement, newest first, one page at a time: one row per visitor and agreement text, with the name typed, the signed-in visitor's proven e-mail, the time, the masked network, the browser and the SHA-256 of the text accepted.",
        'Pass nextCursor back as cursor for the next page, until it is null. NOT_FOUND when the share is not yours.',
      ].join(' '),
      inputSchema: {
        shareId: z.string().min(1).describe('Id of the share'),
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
      },
      outputSchema: { acceptances: z.array(acceptanceSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, limit, cursor }) =>
      runTool(context, () =>
        unwrap(
          context.client.GET('/api/v1/shares/{id}/acceptances', {
            params: { path: { id: shareId }, query: { limit, cursor } },
          }),
        ),
      ),
  );
}
