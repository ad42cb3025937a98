import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ViewedShare } from './share-view.repository.js';
import type { CookieToSet, ViewerRequest } from './viewer-answer.js';
import { ViewerIdentity } from './viewer-identity.js';

/** How long the documents of an admitted collection visit stay open without passing the gate again. */
export const COLLECTION_VISIT_SECONDS = 4 * 3600;

export function collectionCookieName(shareId: string): string {
  return `sd_visit_${shareId.replace(/-/g, '')}`;
}

/** The share's rules a visit was admitted under, as far as they ask something of the visitor. */
type AdmittingRules = Pick<
  ViewedShare,
  'id' | 'hasPassword' | 'requireLogin' | 'emailAllowlist' | 'oneSession' | 'agreementSha256'
>;

/**
 * A short digest of the rules that admit a visitor: a pass made under other rules (an agreement
 * added or its text changed, a password, sign-in or allowlist added or the list changed) is no
 * pass, and the visitor meets the gate again, as a single share's visitor would on the next view.
 */
function rulesDigest(share: AdmittingRules): string {
  const allowlist = share.emailAllowlist ? [...share.emailAllowlist].sort().join(',') : '';
  const rules = [share.hasPassword, share.requireLogin, share.oneSession, share.agreementSha256 ?? '', allowlist].join('\n');
  return createHash('sha256').update(rules).digest('base64url').slice(0, 16);
}

/**
 * The admitted visit of a collection, remembered for its document pages: a signed, expiring,
 * HttpOnly, SameSite=Lax cookie on the render origin, scoped to the link's path, naming the share,
 * the visit (the visit log's id, which the documents' reads are filed under), the visitor (a
 * keyed digest of the visitor key, so another browser cannot use it) and the share's admitting
 * rules (rulesDigest).
 */
@Injectable()
export class CollectionPasses {
  constructor(private readonly identity: ViewerIdentity) {}

  issue(share: AdmittingRules, visitId: string, visitorKey: string, linkPath: string): CookieToSet {
    const value = this.identity.collectionVisits.seal(
      { s: share.id, v: visitId, k: this.identity.visitorId(visitorKey), r: rulesDigest(share) },
      COLLECTION_VISIT_SECONDS,
    );
    return { name: collectionCookieName(share.id), value, maxAge: COLLECTION_VISIT_SECONDS, path: linkPath };
  }

  /**
   * The visit id of this visitor's admitted visit of the share, or null: none, expired, forged,
   * another visitor's, or admitted under rules the share no longer has.
   */
  visitOf(request: ViewerRequest, share: AdmittingRules, visitorKey: string): string | null {
    const pass = this.identity.collectionVisits.open<{ s?: unknown; v?: unknown; k?: unknown; r?: unknown }>(
      request.cookies[collectionCookieName(share.id)],
    );
    if (!pass || pass.s !== share.id || typeof pass.v !== 'string' || pass.r !== rulesDigest(share)) return null;
    return pass.k === this.identity.visitorId(visitorKey) ? pass.v : null;
  }
}
