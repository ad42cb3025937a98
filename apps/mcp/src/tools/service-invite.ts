import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { invitationInputSchema, invitationSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

/** An invitation: POST /workspace/invitations with the arguments as its body, unchanged. */
export function registerServiceInviteTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_invite',
    {
      title: 'Invite someone to the workspace',
      description: [
        'Invites an e-mail address into the shared workspace this token acts in, with a role. The answer has the invitation and its link (url): single use, good for 7 days, mailed to the address when the service sends mail; give it to the invitee otherwise.',
        'Only a signed-in account of that address can accept it (in the console). Each call makes another invitation; service_list_invitations lists the pending ones, service_revoke_invitation withdraws one.',
        'Errors: FORBIDDEN unless you are OWNER or ADMIN (an ADMIN cannot invite an OWNER) or for a read-only token, CONFLICT in a personal workspace (it cannot have other members), VALIDATION for a malformed address.',
      ].join(' '),
      inputSchema: invitationInputSchema,
      outputSchema: {
        invitation: invitationSchema,
        url: z.string().describe('The link that accepts it, {service}/invitations/<secret>; single use'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) => runTool(context, () => unwrap(context.client.POST('/api/v1/workspace/invitations', { body: input }))),
  );
}
