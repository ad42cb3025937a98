import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { shareSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceRevokeTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_revoke',
    {
      title: 'Revoke a share link',
      description: [
        'Revokes a share link: its URL stops working for everyone, immediately and for good (a revoked link cannot be restored; create a new one with service_share).',
        'The file itself and its other links are not touched. NOT_FOUND when the share does not exist or is not yours.',
      ].join(' '),
      inputSchema: { shareId: z.string().min(1).describe('Id of the share (the `id` field of a share, not its token or URL)') },
      outputSchema: { share: shareSchema.describe('The share, with revokedAt set') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId }) =>
      runTool(context, () => unwrap(context.client.DELETE('/api/v1/shares/{id}', { params: { path: { id: shareId } } }))),
  );
}
