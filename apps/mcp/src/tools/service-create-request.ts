import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { unwrap } from '@sharedown/contract';
import { requestInputSchema, requestSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

/** A document request: POST /requests with the arguments as its body, unchanged. */
export function registerServiceCreateRequestTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_create_request',
    {
      title: 'Create a document request',
      description: [
        'Creates a document request: a link (url, {service}/r/<owner_segment>/<token>) through which anyone who has it uploads documents to you, without an account.',
        'Uploads land in folderId, or without it in a new folder named after the title inside a top-level folder "Requests". Each upload takes one of maxUploads slots (default 10), is scanned for malware and waits for your review (service_request_uploads, service_review_upload): it cannot be shared until you accept it.',
        'Optional: instructions in Markdown, a per-upload size limit (maxBytes), an expiry in days, a password, an e-mail allowlist (uploaders prove their address with an e-mail code), and when you are told of uploads (notify, default every).',
        'Each call makes another independent request. Errors: NOT_FOUND when folderId is not your folder, FORBIDDEN for a read-only token, VALIDATION for out-of-range values.',
      ].join(' '),
      inputSchema: requestInputSchema,
      outputSchema: { request: requestSchema, url: requestSchema.shape.url },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) => runTool(context, () => unwrap(context.client.POST('/api/v1/requests', { body: input }))),
  );
}
