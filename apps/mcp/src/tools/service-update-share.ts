import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { LocalValidationError } from '../api-errors.js';
import { shareSchema, shareUpdateSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

type ShareChanges = z.infer<typeof shareUpdateSchema>;

/** The PATCH body: only the policies the caller named, null kept (it removes); an empty change is refused. */
export function shareChangesOf(options: ShareChanges): ShareChanges {
  const changes = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ShareChanges;
  if (Object.keys(changes).length === 0) {
    throw new LocalValidationError(
      `name at least one policy to change in options: ${Object.keys(shareUpdateSchema.shape).join(', ')}`,
    );
  }
  return changes;
}

/**
 * `{ shareId, options }`, options being service_share's less what a live link cannot change. The
 * object is strict: policies given beside `options` (this tool's earlier flat form) are refused by
 * name instead of being dropped unseen.
 */
export const updateShareInputSchema = z.strictObject({
  shareId: z.string().min(1).describe('Id of the share (the `id` field of a share, not its token or URL)'),
  options: shareUpdateSchema.describe(
    "The policies to change, as in service_share's options; only those given change, null removes a limit",
  ),
});

export function registerServiceUpdateShareTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_update_share',
    {
      title: 'Change a share link',
      description: [
        'Changes the policies of a live share link (of a file or a folder) in place: the URL, its visit counts and its history stay. service_get_share shows the current ones.',
        'Give them in `options`, the object service_share takes. Only the fields given change; null removes a limit (expiry, password, visit caps, watermark text) or the agreement, [] clears the e-mail allowlist.',
        'A new agreement text asks every visitor again; service_acceptances lists who accepted.',
        'A total cap at or below the visits so far uses the link up; a higher one opens it again. The next visit is judged by the new policies.',
        'The slug, one-time use and the pinned version cannot be changed (make a new link with service_share).',
        'Errors: NOT_FOUND when the share is not yours, CONFLICT when it is revoked, VALIDATION for out-of-range values or options that change nothing.',
      ].join(' '),
      inputSchema: updateShareInputSchema,
      outputSchema: { share: shareSchema.describe('The share with its new policies') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, options }) =>
      runTool(context, async () => ({
        share: await unwrap(
          context.client.PATCH('/api/v1/shares/{id}', { params: { path: { id: shareId } }, body: shareChangesOf(options) }),
        ),
      })),
  );
}
