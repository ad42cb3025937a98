import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { trashFileSchema, trashFolderSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceTrashTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_trash',
    {
      title: 'List the trash',
      description: [
        'Lists what is in your trash: folders moved there (their files come back with them) and files moved there on their own, each with deletedAt.',
        'Restore with service_restore, delete for good with service_purge. Trashed items count against the storage quota until purged.',
      ].join(' '),
      inputSchema: {},
      outputSchema: {
        folders: z.array(trashFolderSchema).describe('Trashed folders'),
        files: z.array(trashFileSchema).describe('Files trashed on their own (not with a folder)'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => runTool(context, () => unwrap(context.client.GET('/api/v1/trash'))),
  );
}
