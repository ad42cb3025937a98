import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { fileSchema, folderSchema } from '../schemas.js';
import { targetOf } from '../targets.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceDeleteTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_delete',
    {
      title: 'Move a file or folder to the trash',
      description: [
        'Moves one file (fileId) or one folder (folderId, with its sub-folders and files) to the trash; give exactly one of them.',
        'Every share link of what is trashed is revoked in the same step, for good: service_restore brings the file back, not its links.',
        'Trashed items still count against the storage quota until service_purge deletes them. NOT_FOUND when the item is not yours or already in the trash.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).optional().describe('Id of the file to trash'),
        folderId: z.string().min(1).optional().describe('Id of the folder to trash, with everything in it'),
      },
      outputSchema: {
        file: fileSchema.optional().describe('The trashed file, when fileId was given'),
        folder: folderSchema.optional().describe('The trashed folder, when folderId was given'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(context, async () => {
        const target = targetOf(args);
        const path = { path: { id: target.id } };
        return target.type === 'file'
          ? unwrap(context.client.DELETE('/api/v1/files/{id}', { params: path }))
          : unwrap(context.client.DELETE('/api/v1/folders/{id}', { params: path }));
      }),
  );
}
