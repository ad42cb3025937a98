import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { memberSchema, roleSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceSetRoleTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_set_role',
    {
      title: "Change a member's role",
      description: [
        'Gives a member of the workspace this token acts in another role; it holds from their next request on, for their sessions and tokens alike. The same role again changes nothing.',
        'An OWNER may set any role; an ADMIN may not make or change an OWNER. The workspace keeps at least one OWNER: demoting the last one is CONFLICT.',
        'Errors: FORBIDDEN unless you are OWNER or ADMIN or for a read-only token, NOT_FOUND when userId is not a member of this workspace (from service_members), CONFLICT in a personal workspace.',
      ].join(' '),
      inputSchema: {
        userId: z.string().min(1).describe("The member's userId (from service_members)"),
        role: roleSchema,
      },
      outputSchema: { member: memberSchema.describe('The member with the new role') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ userId, role }) =>
      runTool(context, () =>
        unwrap(context.client.PATCH('/api/v1/workspace/members/{userId}', { params: { path: { userId } }, body: { role } })),
      ),
  );
}
