import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { shareInputSchema, shareSchema, viewUrlSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceShareTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_share',
    {
      title: 'Create a share link',
      description: [
        'Creates a new share link for an uploaded file, or for a folder (a collection), and returns its public view URL.',
        "Give exactly one of fileId and folderId. A collection link shows the folder's documents (sub-folders' documents grouped under their folder; only documents whose current version is CLEAN; files added later appear, files moved out or trashed disappear), each opening at <url>/d/<fileId>; every policy applies to the collection as a whole, and lockedVersionId is refused for it.",
        'Each call makes another independent link; a file or folder can have many.',
        'Policies (all optional): expiry in days, password, visit caps, one-time use, login requirement, e-mail allowlist, custom slug, watermark (its text may name the reader: {email}, {name}, {date}, {ip}), copy protection, burn-after-read, and an agreement visitors must accept first.',
        'Errors: NOT_FOUND when the file or folder does not exist (or is in the trash), INFECTED when the file is quarantined, SLUG_TAKEN when the slug is in use, VALIDATION for out-of-range options and for both or neither of fileId and folderId (field names which).',
      ].join(' '),
      inputSchema: {
        fileId: z
          .string()
          .min(1)
          .optional()
          .describe('Id of the file to share (from service_upload or service_list); exactly one of fileId and folderId'),
        folderId: z
          .string()
          .min(1)
          .optional()
          .describe('Id of a folder to share as a collection (from service_folders); exactly one of fileId and folderId'),
        options: shareInputSchema.optional().describe('Share link policies; omit for a plain link that never expires'),
      },
      outputSchema: { share: shareSchema, url: viewUrlSchema },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ fileId, folderId, options }) =>
      runTool(context, () => unwrap(context.client.POST('/api/v1/shares', { body: { ...options, fileId, folderId } }))),
  );
}
