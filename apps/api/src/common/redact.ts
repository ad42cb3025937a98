const REDACTED = '[redacted]';

/**
 * A request URL fit for a log line: share tokens and slugs, owner segments, frame and sign-in
 * tickets (path segments under /s/) and every query value are replaced; route names stay
 * (`/s/_render/…`, `/s/<…>/<…>/report`), so the line still says what was asked.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const query = queryStart < 0 ? '' : url.slice(queryStart + 1);
  const redactedPath = redactViewerPath(path);
  if (!query) return redactedPath;
  const names = query
    .split('&')
    .filter(Boolean)
    .map((pair) => `${safeName(pair.split('=')[0] ?? '')}=${REDACTED}`);
  return `${redactedPath}?${names.join('&')}`;
}

function redactViewerPath(path: string): string {
  if (!path.startsWith('/s/')) return path;
  const segments = path.slice(3).split('/');
  return `/s/${segments.map((segment, i) => (isRouteName(segment, i, segments.length) ? segment : REDACTED)).join('/')}`;
}

function isRouteName(segment: string, index: number, count: number): boolean {
  if (index === 0 && segment.startsWith('_')) return true;
  if (segment === 'return' && index === 1) return true;
  return segment === 'report' && index === count - 1 && index > 0;
}

function safeName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,32}$/.test(name) ? name : REDACTED;
}
