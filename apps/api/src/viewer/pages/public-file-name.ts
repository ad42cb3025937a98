import type { ViewedShare } from '../share-view/share-view.repository.js';

/**
 * The file name a stranger holding the link may learn before any gate: none for a link that asks
 * its visitors to sign in (the login rule, an allowlist, a per-account cap), whose owner chose an
 * audience, and none for a revoked link. Link-preview cards and the report form show it.
 */
export function publicFileName(
  share: Pick<ViewedShare, 'fileName' | 'revoked' | 'requireLogin' | 'emailAllowlist' | 'perLoginUserMaxVisits'>,
): string | null {
  const asksSignIn = share.requireLogin || (share.emailAllowlist?.length ?? 0) > 0 || share.perLoginUserMaxVisits !== null;
  return asksSignIn || share.revoked ? null : share.fileName;
}
