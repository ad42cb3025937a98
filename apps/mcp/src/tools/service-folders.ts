import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { folderNodeSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceFoldersTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_folders',
    {
      title: 'List folders',
      description: [
        'Returns your folder tree: the top-level folders, each with its sub-folders nested in children. Folders in the trash are left out.',
        'Use a folder id with service_list (its files), service_upload (folder), service_move and service_create_folder (parentId).',
      ].join(' '),
      inputSchema: {},
      outputSchema: { folders: z.array(folderNodeSchema).describe('Top-level folders') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => runTool(context, () => unwrap(context.client.GET('/api/v1/folders'))),
  );
}
