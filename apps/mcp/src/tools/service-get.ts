import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { fileSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceGetTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_get',
    {
      title: 'Get file details',
      description: [
        'Returns the metadata of one file: name, kind, size, folder, number of share links and antivirus status',
        '(PENDING while being scanned, CLEAN when visitors can see it, INFECTED when quarantined, SCAN_ERROR when the scan failed and is retried).',
        'The document text is not returned. NOT_FOUND when the file does not exist or is not yours.',
      ].join(' '),
      inputSchema: { fileId: z.string().min(1).describe('Id of the file') },
      outputSchema: { file: fileSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ fileId }) =>
      runTool(context, async () => ({
        file: await unwrap(context.client.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } })),
      })),
  );
}
