import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { REVIEW_DECISIONS, requestUploadSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceReviewUploadTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_review_upload',
    {
      title: 'Accept or reject an upload',
      description: [
        'Your decision on an upload a document request received (its id from service_request_uploads). accept: the file becomes shareable like any other (once its scan is CLEAN). reject: the file moves to the trash and the upload can never be accepted.',
        'A decision is final: deciding the same way again changes nothing, the other way answers CONFLICT. NOT_FOUND when the request or the upload is not yours.',
      ].join(' '),
      inputSchema: {
        requestId: z.string().min(1).describe('Id of the request'),
        uploadId: z.string().min(1).describe('Id of the upload (the `id` of an upload, not its fileId)'),
        decision: z.enum(REVIEW_DECISIONS).describe('accept or reject'),
      },
      outputSchema: { upload: requestUploadSchema.describe('The upload with its review: ACCEPTED or REJECTED') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ requestId, uploadId, decision }) =>
      runTool(context, () => {
        // Accept and reject are two operations of the API, one tool here.
        const params = { path: { id: requestId, uploadId } };
        return decision === 'accept'
          ? unwrap(context.client.POST('/api/v1/requests/{id}/uploads/{uploadId}/accept', { params }))
          : unwrap(context.client.POST('/api/v1/requests/{id}/uploads/{uploadId}/reject', { params }));
      }),
  );
}
