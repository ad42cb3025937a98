import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { purgeResultSchema } from '../schemas.js';
import { purgeTargetOf } from '../targets.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServicePurgeTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_purge',
    {
      title: 'Delete from the trash for good',
      description: [
        'Deletes trashed items for good and frees their storage: one trashed file (fileId), one trashed folder with its sub-folders and files (folderId), or the whole trash (all: true). Give exactly one.',
        'This cannot be undone. Only items already in the trash (see service_trash) can be purged: NOT_FOUND otherwise; a live file must first go through service_delete.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).optional().describe('Id of a trashed file'),
        folderId: z.string().min(1).optional().describe('Id of a trashed folder'),
        all: z.boolean().optional().describe('true empties the whole trash'),
      },
      outputSchema: purgeResultSchema,
      // Emptying the trash twice may delete what was trashed in between, so a retry is not harmless.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      runTool(context, async () => {
        const target = purgeTargetOf(args);
        if (target.type === 'all') return unwrap(context.client.DELETE('/api/v1/trash'));
        const path = { path: { id: target.id } };
        return target.type === 'file'
          ? unwrap(context.client.DELETE('/api/v1/trash/files/{id}', { params: path }))
          : unwrap(context.client.DELETE('/api/v1/trash/folders/{id}', { params: path }));
      }),
  );
}
