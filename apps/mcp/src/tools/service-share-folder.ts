import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { shareFolderInputSchema, shareSchema, viewUrlSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

/** A folder link (a collection): POST /shares with `folderId`, the service judging it as it judges the console's. */
export function registerServiceShareFolderTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_share_folder',
    {
      title: 'Share a folder as a collection',
      description: [
        "Creates a share link for a folder (a collection) and returns its public view URL: one page listing the folder's documents (sub-folders' documents grouped under their folder; only documents whose current version is CLEAN), each opening at <url>/d/<fileId>.",
        'Files added to the folder later appear, files moved out or trashed disappear. Every policy applies to the collection as a whole.',
        'Each call makes another independent link. The options are those of service_share but the version pin (a collection shows each current version).',
        'Errors: NOT_FOUND when the folder does not exist (or is in the trash), SLUG_TAKEN when the slug is in use, VALIDATION for out-of-range options.',
      ].join(' '),
      inputSchema: {
        folderId: z.string().min(1).describe('Id of the folder to share (from service_folders or service_create_folder)'),
        options: shareFolderInputSchema.optional().describe('Share link policies; omit for a plain link that never expires'),
      },
      outputSchema: { share: shareSchema, url: viewUrlSchema },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ folderId, options }) =>
      runTool(context, () => unwrap(context.client.POST('/api/v1/shares', { body: { ...options, folderId } }))),
  );
}
