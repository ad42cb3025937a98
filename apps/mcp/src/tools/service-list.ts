import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, fileSchema, pageLimitSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceListTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_list',
    {
      title: 'List files',
      description: [
        'Lists your files with their metadata (no document text), by name.',
        'Without folderId it lists all your files; with one, only the files of that folder (NOT_FOUND when the folder is not yours). Files in the trash are not listed.',
        'Without limit and cursor the answer holds every file; with either it holds one page and nextCursor: pass that back as cursor (with the same folderId) until it is null.',
      ].join(' '),
      inputSchema: {
        folderId: z.string().optional().describe('Folder id (see service_folders); omit to list every file'),
        limit: pageLimitSchema(200, 'asks for one page instead of the whole list (50 when only cursor is given)'),
        cursor: cursorSchema,
      },
      outputSchema: {
        files: z.array(fileSchema),
        nextCursor: z
          .string()
          .nullable()
          .optional()
          .describe('Present when limit or cursor was given: the cursor of the next page, null on the last page'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ folderId, limit, cursor }) =>
      runTool(context, () =>
        unwrap(context.client.GET('/api/v1/files', { params: { query: { folderId: folderId || undefined, limit, cursor } } })),
      ),
  );
}
