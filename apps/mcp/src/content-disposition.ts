/**
 * The file name of a `Content-Disposition` header: the RFC 5987 `filename*` when present (it
 * carries names outside ASCII), else the plain `filename`; undefined when neither can be read.
 */
export function fileNameOfDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^']*)'[^']*'([^;\s]+)/i.exec(header);
  if (extended && /^utf-8$/i.test(extended[1]!)) {
    try {
      return decodeURIComponent(extended[2]!);
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s"]+)/i.exec(header);
  return token?.[1];
}
