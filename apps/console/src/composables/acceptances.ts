import { api, call, inTabWorkspace } from '../api/client';
import type { Acceptance } from '../api/types';

export type { Acceptance };

export const ACCEPTANCE_PAGE_SIZE = 20;

/** Where the whole list downloads as CSV (the session cookie authorizes the plain link). */
export function acceptancesCsvUrl(shareId: string): string {
  return inTabWorkspace(`/api/console/shares/${encodeURIComponent(shareId)}/acceptances.csv`);
}

/** One page of a share's acceptances, newest first. */
export async function fetchAcceptancePage(
  shareId: string,
  cursor?: string,
): Promise<{ acceptances: Acceptance[]; nextCursor: string | null }> {
  return call(
    api().GET('/api/console/shares/{id}/acceptances', {
      params: { path: { id: shareId }, query: { limit: ACCEPTANCE_PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
    }),
  );
}

/** A user agent short enough for a table cell; the whole one stays in the cell's title. */
export function shortUserAgent(userAgent: string, max = 40): string {
  return [...userAgent].length > max ? `${[...userAgent].slice(0, max - 1).join('')}…` : userAgent;
}
