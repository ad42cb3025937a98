import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { invitationSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceRevokeInvitationTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_revoke_invitation',
    {
      title: 'Revoke a pending invitation',
      description: [
        'Withdraws a pending invitation of the workspace this token acts in, for good: its link no longer accepts (invite again with service_invite for a new one).',
        "Errors: FORBIDDEN unless you are OWNER or ADMIN or for a read-only token, NOT_FOUND when it is not a pending invitation of this workspace (already accepted or revoked, or another workspace's).",
      ].join(' '),
      inputSchema: {
        invitationId: z
          .string()
          .min(1)
          .describe('Id of the invitation (its `id`, from service_list_invitations or service_invite)'),
      },
      outputSchema: { invitation: invitationSchema.describe('The invitation revoked') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ invitationId }) =>
      runTool(context, () =>
        unwrap(context.client.DELETE('/api/v1/workspace/invitations/{id}', { params: { path: { id: invitationId } } })),
      ),
  );
}
