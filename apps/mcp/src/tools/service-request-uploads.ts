import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { cursorSchema, nextCursorSchema, pageLimitSchema, requestUploadSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceRequestUploadsTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_request_uploads',
    {
      title: 'Uploads a document request received',
      description: [
        'The uploads a document request received, newest first, one page at a time (50 unless limit says otherwise): file name, size, malware scan state, your review (PENDING, ACCEPTED, REJECTED), the name, e-mail and message the uploader gave, and the fileId to read it with service_read once CLEAN.',
        'Decide on a PENDING one with service_review_upload. Pass nextCursor back as cursor for the next page, until it is null. NOT_FOUND when the request is not yours.',
      ].join(' '),
      inputSchema: {
        requestId: z.string().min(1).describe('Id of the request'),
        limit: pageLimitSchema(200, 'default 50'),
        cursor: cursorSchema,
      },
      outputSchema: { uploads: z.array(requestUploadSchema).describe('Newest first'), nextCursor: nextCursorSchema },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ requestId, limit, cursor }) =>
      runTool(context, () =>
        unwrap(
          context.client.GET('/api/v1/requests/{id}/uploads', { params: { path: { id: requestId }, query: { limit, cursor } } }),
        ),
      ),
  );
}
