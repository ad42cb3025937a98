import { parse } from 'content-disposition';

/**
 * The file name a `Content-Disposition` header names (its RFC 5987 `filename*` when present, which
 * carries names outside ASCII); undefined when there is none or the header cannot be read.
 */
export function fileNameOfDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  try {
    return parse(header).parameters.filename;
  } catch {
    return undefined;
  }
}
