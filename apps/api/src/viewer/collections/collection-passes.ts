import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-context.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';
import type { CookieToSet, ViewerRequest } from '../visitor/viewer-answer.js';
import { ViewerIdentity } from '../visitor/viewer-identity.js';

/** How long the documents of an admitted collection visit stay open without passing the gate again. */
export const COLLECTION_VISIT_SECONDS = 4 * 3600;

export function collectionCookieName(shareId: string): string {
  return `sd_visit_${shareId.replace(/-/g, '')}`;
}

/** The share's rules a visit was admitted under, as far as they ask something of the visitor. */
type AdmittingRules = Pick<
  ViewedShare,
  | 'id'
  | 'hasPassword'
  | 'passwordVersion'
  | 'requireLogin'
  | 'emailAllowlist'
  | 'perLoginUserMaxVisits'
  | 'oneSession'
  | 'agreementSha256'
>;

/** A visit within an admitted pass: its id, and the account it was re-checked for (null: the rules ask for none). */
export interface PassVisit {
  visitId: string;
  user: AuthUser | null;
}

interface SealedPass extends Record<string, unknown> {
  s?: unknown;
  v?: unknown;
  k?: unknown;
  r?: unknown;
  u?: unknown;
}

/** Whether the share's rules depend on who is signed in: sign-in, an allowlist, or a per-account cap. */
function dependsOnAccount(share: AdmittingRules): boolean {
  return share.requireLogin || (share.emailAllowlist?.length ?? 0) > 0 || share.perLoginUserMaxVisits !== null;
}

/**
 * A short digest of the rules that admit a visitor: a pass made under other rules (an agreement
 * added or its text changed, a password set or changed, sign-in or allowlist added or the list
 * changed) is no pass, and the visitor meets the gate again, as a single share's visitor would on
 * the next view.
 */
function rulesDigest(share: AdmittingRules): string {
  const allowlist = share.emailAllowlist ? [...share.emailAllowlist].sort().join(',') : '';
  const password = share.hasPassword ? share.passwordVersion : '';
  const rules = [password, share.requireLogin, share.oneSession, share.agreementSha256 ?? '', allowlist].join('\n');
  return createHash('sha256').update(rules).digest('base64url').slice(0, 16);
}

/**
 * The admitted visit of a collection, remembered for its list and document pages: a signed,
 * expiring, HttpOnly, SameSite=Lax cookie on the render origin, scoped to the link's path, naming
 * the share, the visit (the visit log's id, which the documents' reads are filed under), the
 * visitor (a keyed digest of the visitor key, so another browser cannot use it), the share's
 * admitting rules (rulesDigest) and, when those depend on the account, the account admitted.
 *
 * A pass only stands for what the cookie can prove by itself. What lives elsewhere is looked at
 * again on every request: the sign-in (a live console or render-host session of the same account,
 * not disabled, in the database) and the address's place on the allowlist. A reader who signed out,
 * was disabled or was taken off the list meets the gate again, on every replica at once.
 */
@Injectable()
export class CollectionPasses {
  constructor(private readonly identity: ViewerIdentity) {}

  issue(share: AdmittingRules, visitId: string, visitorKey: string, linkPath: string, user: AuthUser | null): CookieToSet {
    const sealed: SealedPass = { s: share.id, v: visitId, k: this.identity.visitorId(visitorKey), r: rulesDigest(share) };
    if (dependsOnAccount(share) && user) sealed.u = user.id;
    const value = this.identity.collectionVisits.seal(sealed, COLLECTION_VISIT_SECONDS);
    return { name: collectionCookieName(share.id), value, maxAge: COLLECTION_VISIT_SECONDS, path: linkPath };
  }

  /**
   * This visitor's admitted visit of the share, or null: no pass, expired, forged, another
   * visitor's, admitted under rules the share no longer has, or (rules that depend on the account)
   * the account admitted is no longer signed in here, is disabled, or is no longer allowed.
   */
  async visitOf(request: ViewerRequest, share: AdmittingRules, visitorKey: string): Promise<PassVisit | null> {
    const pass = this.identity.collectionVisits.open<SealedPass>(request.cookies[collectionCookieName(share.id)]);
    if (!pass || pass.s !== share.id || typeof pass.v !== 'string' || pass.r !== rulesDigest(share)) return null;
    if (pass.k !== this.identity.visitorId(visitorKey)) return null;
    if (!dependsOnAccount(share)) return { visitId: pass.v, user: null };
    if (typeof pass.u !== 'string') return null;
    const user = await this.identity.user(request);
    if (!user || user.id !== pass.u) return null;
    if (share.emailAllowlist?.length && !(user.emailVerified && share.emailAllowlist.includes(user.email.toLowerCase()))) {
      return null;
    }
    return { visitId: pass.v, user };
  }
}
