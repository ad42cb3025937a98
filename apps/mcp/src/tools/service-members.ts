import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, memberSchema, nextCursorSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceMembersTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_members',
    {
      title: 'Members of the workspace',
      description: [
        'Lists the members of the workspace this token acts in, by e-mail address, 50 a page: each with the userId that service_set_role and service_remove_member take, the role and when they joined.',
        'Every role may read them; a personal workspace has one member, its account, as OWNER. Pass nextCursor back as cursor for the next page, until it is null.',
      ].join(' '),
      inputSchema: { cursor: cursorSchema },
      outputSchema: { members: z.array(memberSchema).describe('By e-mail address'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ cursor }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/workspace/members', { params: { query: { cursor } } }))),
  );
}
