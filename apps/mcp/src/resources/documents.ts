import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { MEDIA_TYPE, unwrap, type Schemas } from '@sharedown/contract';
import { toErrorBody, type ToolErrorBody } from '../api-errors.js';
import { essenceOf, readDocumentText } from '../document-text.js';
import type { ToolContext } from '../tool-context.js';

export const DOCUMENT_URI_TEMPLATE = 'sharedown://files/{id}';

/** resources/list is one request with no paging of its own: one page of the API bounds it. */
export const LISTED_DOCUMENTS_MAX = 200;

/** The spec's code for a resource that does not exist; the SDK has no constant for it. */
export const RESOURCE_NOT_FOUND = -32002;

export function documentUri(fileId: string): string {
  return `sharedown://files/${encodeURIComponent(fileId)}`;
}

const UNREADABLE: Record<Exclude<Schemas['ScanStatus'], 'CLEAN'>, string> = {
  PENDING: 'Not readable yet: being scanned for malware.',
  SCAN_ERROR: 'Not readable yet: the malware scan failed and is retried.',
  INFECTED: 'Not readable: quarantined by the malware scan',
};

export function documentResourceOf(file: Schemas['FileDto']): Resource {
  let state = '';
  if (file.scanStatus === 'INFECTED') state = ` ${UNREADABLE.INFECTED}${file.scanResult ? ` (${file.scanResult})` : ''}.`;
  else if (file.scanStatus !== 'CLEAN') state = ` ${UNREADABLE[file.scanStatus]}`;
  return {
    uri: documentUri(file.id),
    name: file.name,
    title: file.name,
    mimeType: essenceOf(MEDIA_TYPE[file.kind]),
    size: file.sizeBytes,
    description: `${file.kind} document, ${file.sizeBytes} bytes.${state}`,
  };
}

/**
 * A failed read, answered as a JSON-RPC error: resources have no error result the way tools do.
 * `data` carries the service's { code, status, message }, like a failed tool call's text. Not an
 * McpError, whose message already starts with "MCP error <code>:", which the client adds again.
 */
export class ResourceReadError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: ToolErrorBody,
  ) {
    super(message);
    this.name = 'ResourceReadError';
  }
}

export function resourceErrorOf(error: unknown, serviceUrl: string): ResourceReadError {
  const body = toErrorBody(error, serviceUrl);
  const code =
    body.code === 'NOT_FOUND'
      ? RESOURCE_NOT_FOUND
      : body.code === 'VALIDATION'
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  return new ResourceReadError(code, `${body.code}: ${body.message}`, body);
}

export function registerDocumentResources(server: McpServer, context: ToolContext): void {
  server.registerResource(
    'document',
    new ResourceTemplate(DOCUMENT_URI_TEMPLATE, {
      list: async () => {
        try {
          const { files } = await unwrap(
            context.client.GET('/api/v1/files', { params: { query: { limit: LISTED_DOCUMENTS_MAX } } }),
          );
          return { resources: files.map(documentResourceOf) };
        } catch (error) {
          throw resourceErrorOf(error, context.config.url);
        }
      },
    }),
    {
      title: 'Sharedown document',
      description: `The text of one of your files, as a share link serves it. resources/list names your first ${LISTED_DOCUMENTS_MAX} files by name; service_list pages through all of them.`,
    },
    async (uri, { id }) => {
      const fileId = decodeURIComponent(String(id));
      try {
        const document = await readDocumentText(context, fileId);
        return { contents: [{ uri: uri.href, mimeType: document.mediaType, text: document.text }] };
      } catch (error) {
        throw resourceErrorOf(error, context.config.url);
      }
    },
  );
}
