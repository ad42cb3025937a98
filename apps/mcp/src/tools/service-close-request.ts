import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { requestSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceCloseRequestTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_close_request',
    {
      title: 'Close a document request',
      description: [
        'Closes a document request: its upload page answers "closed" (410) to everyone from now on, for good (a closed request cannot be opened again; create a new one with service_create_request).',
        'The uploads it received stay, with their files and reviews. Closing twice keeps the first closedAt. NOT_FOUND when the request is not yours.',
      ].join(' '),
      inputSchema: { requestId: z.string().min(1).describe('Id of the request (the `id` field of a request, not its url)') },
      outputSchema: { request: requestSchema.describe('The request, state CLOSED, with closedAt set') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ requestId }) =>
      runTool(context, () => unwrap(context.client.DELETE('/api/v1/requests/{id}', { params: { path: { id: requestId } } }))),
  );
}
