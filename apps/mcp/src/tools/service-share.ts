import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { shareInputSchema, shareSchema, viewUrlSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

/** One of the spec's six tools: its input is the spec's `fileId` and `options`, no more (a folder has service_share_folder). */
export function registerServiceShareTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_share',
    {
      title: 'Create a share link',
      description: [
        'Creates a new share link for an uploaded file and returns its public view URL.',
        'Each call makes another independent link; a file can have many. To share a whole folder as one link, use service_share_folder.',
        'Policies (all optional): expiry in days, password, visit caps, one-time use, login requirement, e-mail allowlist, custom slug, watermark (its text may name the reader: {email}, {name}, {date}, {ip}), copy protection, burn-after-read, an agreement visitors must accept first, a pinned version, and visit notifications.',
        'Errors: NOT_FOUND when the file does not exist (or is in the trash), INFECTED when the file is quarantined, SLUG_TAKEN when the slug is in use, VALIDATION for out-of-range options.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).describe('Id of the file to share (from service_upload or service_list)'),
        options: shareInputSchema.optional().describe('Share link policies; omit for a plain link that never expires'),
      },
      outputSchema: { share: shareSchema, url: viewUrlSchema },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ fileId, options }) =>
      runTool(context, () => unwrap(context.client.POST('/api/v1/shares', { body: { ...options, fileId } }))),
  );
}
