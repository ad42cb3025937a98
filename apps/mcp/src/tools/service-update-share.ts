import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { LocalValidationError } from '../api-errors.js';
import { shareSchema, shareUpdateSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

type ShareChanges = z.infer<typeof shareUpdateSchema>;

/** The PATCH body: only the policies the caller named, null kept (it removes); an empty change is refused. */
export function shareChangesOf(args: ShareChanges): ShareChanges {
  const changes = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as ShareChanges;
  if (Object.keys(changes).length === 0) {
    throw new LocalValidationError(`name at least one policy to change: ${Object.keys(shareUpdateSchema.shape).join(', ')}`);
  }
  return changes;
}

export function registerServiceUpdateShareTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_update_share',
    {
      title: 'Change a share link',
      description: [
        'Changes the policies of a live share link in place: the URL, its visit counts and its history stay. service_get_share shows the current ones.',
        'Only the fields given change; null removes a limit (expiry, password, visit caps, watermark text) or the agreement, [] clears the e-mail allowlist.',
        'A new agreement text asks every visitor again; service_acceptances lists who accepted.',
        'A total cap at or below the visits so far uses the link up; a higher one opens it again. The next visit is judged by the new policies.',
        'The slug, one-time use and the pinned version cannot be changed (make a new link with service_share).',
        'Errors: NOT_FOUND when the share is not yours, CONFLICT when it is revoked, VALIDATION for out-of-range values.',
      ].join(' '),
      inputSchema: {
        shareId: z.string().min(1).describe('Id of the share (the `id` field of a share, not its token or URL)'),
        ...shareUpdateSchema.shape,
      },
      outputSchema: { share: shareSchema.describe('The share with its new policies') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ shareId, ...policies }) =>
      runTool(context, async () => ({
        share: await unwrap(
          context.client.PATCH('/api/v1/shares/{id}', { params: { path: { id: shareId } }, body: shareChangesOf(policies) }),
        ),
      })),
  );
}
