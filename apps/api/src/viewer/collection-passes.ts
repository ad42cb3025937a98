import { Injectable } from '@nestjs/common';
import type { CookieToSet, ViewerRequest } from './viewer-answer.js';
import { ViewerIdentity } from './viewer-identity.js';

/** How long the documents of an admitted collection visit stay open without passing the gate again. */
export const COLLECTION_VISIT_SECONDS = 4 * 3600;

export function collectionCookieName(shareId: string): string {
  return `sd_visit_${shareId.replace(/-/g, '')}`;
}

/**
 * The admitted visit of a collection, remembered for its document pages: a signed, expiring,
 * HttpOnly, SameSite=Lax cookie on the render origin, scoped to the link's path, naming the share,
 * the visit (the visit log's id, which the documents' reads are filed under) and the visitor (a
 * keyed digest of the visitor key, so another browser cannot use it).
 */
@Injectable()
export class CollectionPasses {
  constructor(private readonly identity: ViewerIdentity) {}

  issue(shareId: string, visitId: string, visitorKey: string, linkPath: string): CookieToSet {
    const value = this.identity.collectionVisits.seal(
      { s: shareId, v: visitId, k: this.identity.visitorId(visitorKey) },
      COLLECTION_VISIT_SECONDS,
    );
    return { name: collectionCookieName(shareId), value, maxAge: COLLECTION_VISIT_SECONDS, path: linkPath };
  }

  /** The visit id of this visitor's admitted visit of the share, or null: none, expired, forged or another visitor's. */
  visitOf(request: ViewerRequest, shareId: string, visitorKey: string): string | null {
    const pass = this.identity.collectionVisits.open<{ s?: unknown; v?: unknown; k?: unknown }>(
      request.cookies[collectionCookieName(shareId)],
    );
    if (!pass || pass.s !== shareId || typeof pass.v !== 'string') return null;
    return pass.k === this.identity.visitorId(visitorKey) ? pass.v : null;
  }
}
