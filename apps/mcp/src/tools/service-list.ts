import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { fileSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceListTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_list',
    {
      title: 'List files',
      description: [
        'Lists your files with their metadata (no document text).',
        'Without folderId it lists all your files; with one, only the files of that folder (NOT_FOUND when the folder is not yours). Files in the trash are not listed.',
      ].join(' '),
      inputSchema: {
        folderId: z.string().optional().describe('Folder id (folders are managed in the console); omit to list every file'),
      },
      outputSchema: { files: z.array(fileSchema) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ folderId }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/files', { params: { query: folderId ? { folderId } : {} } }))),
  );
}
