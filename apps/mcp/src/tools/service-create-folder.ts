import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS, unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { folderSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceCreateFolderTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_create_folder',
    {
      title: 'Create a folder',
      description: [
        'Creates a folder at the top level, or inside another folder with parentId.',
        'DUPLICATE when a folder of that name is already there; NOT_FOUND when the parent is not yours.',
      ].join(' '),
      inputSchema: {
        name: z.string().trim().min(1).max(LIMITS.fileName.max).describe('Folder name'),
        parentId: z.string().min(1).nullable().optional().describe('The folder to create it in; omit or null for the top level'),
      },
      outputSchema: { folder: folderSchema },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ name, parentId }) => runTool(context, () => unwrap(context.client.POST('/api/v1/folders', { body: { name, parentId } }))),
  );
}
