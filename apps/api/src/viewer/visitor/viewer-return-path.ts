import type { ViewerRequest } from './viewer-answer.js';

/**
 * A return path inside the viewer (a share link's `/s/…` or a document request's `/r/…`), never
 * an absolute URL that could send the visitor elsewhere.
 */
export function safeNext(next: string | undefined): string {
  return typeof next === 'string' && /^\/[sr]\/[A-Za-z0-9_\-/%.?=&]*$/.test(next) && !next.includes('//') ? next : '/s/';
}

/**
 * Where the language switch of a page leads back to: the page itself for a GET. A page answering
 * a form comes back as a GET of the place the form was about (its `next`, else the link it was
 * posted to), so switching never repeats the submission.
 */
export function safeReturnPath(request: ViewerRequest): string {
  if (request.method === 'GET' || request.method === 'HEAD') return safeNext(request.path);
  if (request.form.next !== undefined) return safeNext(request.form.next);
  const path = request.path.split('?')[0]!;
  return safeNext(path.startsWith('/s/_') ? undefined : path);
}
