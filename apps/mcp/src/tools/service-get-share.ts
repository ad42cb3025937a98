import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { sharePoliciesSchema, shareSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceGetShareTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_get_share',
    {
      title: 'Get a share link',
      description: [
        'Returns one share link with its policies and visit counts, plus the policies the share object does not show (the e-mail allowlist and the one-session rule), which service_update_share starts from.',
        'The view URL is {service}/s/<ownerSegment>/<token>. NOT_FOUND when the share is not yours.',
      ].join(' '),
      inputSchema: { shareId: z.string().min(1).describe('Id of the share') },
      outputSchema: { share: shareSchema, policies: sharePoliciesSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId }) =>
      runTool(context, async () => {
        const params = { path: { id: shareId } };
        const [share, policies] = await Promise.all([
          unwrap(context.client.GET('/api/v1/shares/{id}', { params })),
          unwrap(context.client.GET('/api/v1/shares/{id}/policies', { params })),
        ]);
        return { share, policies };
      }),
  );
}
