import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS, MEDIA_TYPE, unwrap, uploadFile } from '@sharedown/contract';
import { z } from 'zod';
import { fileNameFor } from '../file-names.js';
import { fileSchema, kindSchema, shareInputSchema, shareSchema, viewUrlSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceUploadTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_upload',
    {
      title: 'Upload a document',
      description: [
        'Stores a single text document (HTML, Markdown or plain text) in Sharedown and optionally creates a share link for it in the same call.',
        `Limits: at most ${LIMITS.uploadBytes / 1024 / 1024} MB per document (UTF-8 bytes), and the account's storage quota; exceeding either gives OVER_QUOTA (413).`,
        "The name gets the kind's extension (.html, .md, .txt) when it has none. A file with the same name in the same folder gives DUPLICATE (409): choose another name.",
        'The document is scanned for malware after upload (scanStatus PENDING, then CLEAN); visitors see it once it is CLEAN.',
        'Pass `share` to get `url`, the public view link, in the answer; without it, call service_share later.',
        'Check content with service_validate first when unsure it is well-formed.',
      ].join(' '),
      inputSchema: {
        content: z.string().max(LIMITS.uploadBytes).describe('The full document text'),
        name: z.string().min(1).max(LIMITS.fileName.max).describe('File name, e.g. "report.md"; shown to visitors'),
        kind: kindSchema,
        folder: z
          .string()
          .optional()
          .describe('Folder id to store the file in (see service_folders, service_create_folder); default: the root'),
        share: shareInputSchema
          .optional()
          .describe('When given, a share link with these policies is created too; {} uses the defaults'),
      },
      outputSchema: {
        file: fileSchema,
        share: shareSchema.optional().describe('Present when `share` was given'),
        url: viewUrlSchema.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ content, name, kind, folder, share }) =>
      runTool(context, async () => {
        const fileName = fileNameFor(name, kind);
        const file = new File([content], fileName, { type: MEDIA_TYPE[kind] });
        return unwrap(uploadFile(context.client, { file, folderId: folder, share }));
      }),
  );
}
