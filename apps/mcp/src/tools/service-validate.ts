import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS, unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { kindSchema, validateResultSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export function registerServiceValidateTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_validate',
    {
      title: 'Validate a document',
      description: [
        'Checks and normalizes document text without storing anything.',
        'Returns ok (false when any issue has level "error"), the list of issues (level, a stable code, message, optional params, line and column) and the normalized text',
        '(CRLF becomes LF, tabs become 4 spaces, BOM removed, trailing whitespace trimmed).',
        `Content is limited to ${LIMITS.validateChars} characters.`,
      ].join(' '),
      inputSchema: {
        content: z.string().max(LIMITS.validateChars).describe('The document text to check'),
        kind: kindSchema,
      },
      outputSchema: validateResultSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ content, kind }) => runTool(context, () => unwrap(context.client.POST('/api/v1/validate', { body: { content, kind } }))),
  );
}
