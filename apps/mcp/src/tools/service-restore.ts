import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { fileDetailsSchema, folderSchema } from '../schemas.js';
import { targetOf } from '../targets.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceRestoreTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_restore',
    {
      title: 'Restore from the trash',
      description: [
        'Brings a trashed file (fileId) or folder (folderId, with everything trashed together with it) back; give exactly one of them. service_trash lists what can be restored.',
        'A file returns to its folder (the top level when that folder is gone); when the name is taken it comes back as "name (1).ext" and renamed is true.',
        'Share links revoked by the deletion stay revoked: make new ones with service_share. NOT_FOUND when the item is not in your trash.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).optional().describe('Id of the trashed file'),
        folderId: z.string().min(1).optional().describe('Id of the trashed folder'),
      },
      outputSchema: {
        file: fileDetailsSchema.optional().describe('The restored file, when fileId was given'),
        folder: folderSchema.optional().describe('The restored folder, when folderId was given'),
        renamed: z.boolean().describe('true when the name was taken and it came back under a numbered name'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(context, async () => {
        const target = targetOf(args);
        const path = { path: { id: target.id } };
        return target.type === 'file'
          ? unwrap(context.client.POST('/api/v1/trash/files/{id}/restore', { params: path }))
          : unwrap(context.client.POST('/api/v1/trash/folders/{id}/restore', { params: path }));
      }),
  );
}
