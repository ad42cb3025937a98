import { SharedownApiError } from '../api/client';

/** One visitor's acceptance of a share's agreement, as the acceptances route lists it. */
export interface Acceptance {
  id: string;
  at: string;
  name: string | null;
  email: string | null;
  ipPrefix: string;
  userAgent: string;
  agreementSha256: string;
}

export interface AcceptancePage {
  acceptances: Acceptance[];
  nextCursor: string | null;
}

export const ACCEPTANCE_PAGE_SIZE = 20;

function base(shareId: string): string {
  return `/api/console/shares/${encodeURIComponent(shareId)}/acceptances`;
}

/** Where the whole list downloads as CSV (the session cookie authorizes the plain link). */
export function acceptancesCsvUrl(shareId: string): string {
  return `${base(shareId)}.csv`;
}

/** One page of a share's acceptances, newest first. */
export async function fetchAcceptancePage(shareId: string, cursor?: string): Promise<AcceptancePage> {
  const query = new URLSearchParams({ limit: String(ACCEPTANCE_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
  const response = await fetch(new Request(`${window.location.origin}${base(shareId)}?${query}`, { credentials: 'same-origin' }));
  const body = (await response.json().catch(() => null)) as (AcceptancePage & { error?: string; code?: string }) | null;
  if (!response.ok || !body) throw new SharedownApiError(response.status, body?.code ?? 'INTERNAL', body?.error ?? '');
  return { acceptances: body.acceptances, nextCursor: body.nextCursor ?? null };
}

/** A user agent short enough for a table cell; the whole one stays in the cell's title. */
export function shortUserAgent(userAgent: string, max = 40): string {
  return [...userAgent].length > max ? `${[...userAgent].slice(0, max - 1).join('')}…` : userAgent;
}
