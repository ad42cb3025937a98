import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { readDocumentText } from '../document-text.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceReadTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_read',
    {
      title: 'Read a document',
      description: [
        'Returns the text of one of your files exactly as stored: the newest version the antivirus scan found clean, the one a share link serves.',
        'Errors: INFECTED when the file is quarantined, CONFLICT while it is still being scanned (or the scan failed and is retried; try again shortly), NOT_FOUND when it is not yours or in the trash.',
        'The same text is available as the resource sharedown://files/{id}.',
      ].join(' '),
      inputSchema: { fileId: z.string().min(1).describe('Id of the file') },
      outputSchema: {
        fileId: z.string(),
        name: z.string().optional().describe('The file name'),
        mediaType: z.string().describe('text/markdown, text/html or text/plain'),
        versionId: z.string().describe('Id of the version returned'),
        versionNo: z.number().int().optional().describe('Number of the version returned (1 for a fresh upload)'),
        text: z.string().describe('The document text (UTF-8)'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ fileId }) => runTool(context, () => readDocumentText(context, fileId)),
  );
}
