import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorBody } from './api-errors.js';
import type { ToolContext } from './tool-context.js';

/**
 * Runs one service call and shapes its outcome as a tool result.
 *
 * An error result carries `{ code, status, message }` as JSON text only: SDK clients of this
 * generation validate any `structuredContent` against the tool's output schema even when
 * `isError` is set, so an error object there would surface as a protocol error instead.
 */
export async function runTool<T extends Record<string, unknown>>(
  context: ToolContext,
  call: () => Promise<T>,
): Promise<CallToolResult> {
  try {
    const data = await call();
    return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
  } catch (error) {
    const body = toErrorBody(error, context.config.url);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}
