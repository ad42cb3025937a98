import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { requestSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceGetRequestTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_get_request',
    {
      title: 'Get a document request',
      description: [
        'Returns one document request: its title, instructions, folder, limits, expiry, password and allowlist settings, state, slots taken and upload page url.',
        'service_request_uploads lists what it received. NOT_FOUND when the request is not yours.',
      ].join(' '),
      inputSchema: { requestId: z.string().min(1).describe('Id of the request (the `id` field of a request, not its url)') },
      outputSchema: { request: requestSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ requestId }) =>
      runTool(context, () => unwrap(context.client.GET('/api/v1/requests/{id}', { params: { path: { id: requestId } } }))),
  );
}
