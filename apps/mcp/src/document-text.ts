import { unwrap } from '@sharedown/contract';
import { fileNameOfDisposition } from './content-disposition.js';
import type { ToolContext } from './tool-context.js';

/** The text a share of the file would serve, with the version it came from. */
export interface DocumentText {
  [key: string]: unknown;
  fileId: string;
  name?: string;
  mediaType: string;
  versionId: string;
  versionNo?: number;
  text: string;
}

/** The media type without its parameters: `text/markdown; charset=utf-8` → `text/markdown`. */
export function essenceOf(contentType: string | null): string {
  return (contentType ?? 'text/plain').split(';')[0]!.trim().toLowerCase() || 'text/plain';
}

// Response.text() would drop a leading byte order mark; the text is returned exactly as stored.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * GET /files/{id}/content. The body is the document itself, not JSON, so it is decoded here; an
 * error answer is still the JSON envelope, which `unwrap` turns into the service's code.
 */
export async function readDocumentText(context: ToolContext, fileId: string): Promise<DocumentText> {
  const call = context.client.GET('/api/v1/files/{id}/content', { params: { path: { id: fileId } }, parseAs: 'arrayBuffer' });
  const body = await unwrap(call);
  const { headers } = (await call).response;
  const versionNo = Number(headers.get('x-version-no'));
  const name = fileNameOfDisposition(headers.get('content-disposition'));
  return {
    fileId,
    ...(name !== undefined ? { name } : {}),
    mediaType: essenceOf(headers.get('content-type')),
    versionId: headers.get('x-version-id') ?? '',
    ...(Number.isInteger(versionNo) && versionNo > 0 ? { versionNo } : {}),
    // openapi-fetch reads an empty body as no data at all.
    text: body ? UTF8.decode(body) : '',
  };
}
