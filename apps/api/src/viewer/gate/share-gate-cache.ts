import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ChangeFeed } from '../../database/change-feed.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';

interface Entry {
  share: ViewedShare;
  loadedAt: number;
}

/**
 * Whether a visit of the link is judged by its admission alone (as `share_open_visits` judges one):
 * the link is live, shows a CLEAN document, and asks nothing of the visitor first (no sign-in,
 * allowlist, reveal step, one-session rule or agreement; not a collection, which issues a pass per
 * visit), nor a password unless this browser proved it already (`passwordProven`: its access
 * cookie). Caps are the admission's to judge, in the database, as always.
 */
export function asksNothing(share: ViewedShare, passwordProven = false): boolean {
  return (
    (!share.hasPassword || passwordProven) &&
    !share.revoked &&
    !share.trashed &&
    !share.expired &&
    !share.consumed &&
    !share.ownerDisabled &&
    !share.disabled &&
    share.scanStatus === 'CLEAN' &&
    share.folderId === null &&
    !share.requireLogin &&
    (share.emailAllowlist === null || share.emailAllowlist.length === 0) &&
    share.perLoginUserMaxVisits === null &&
    !share.oneTime &&
    !share.burnAfterRead &&
    !share.oneSession &&
    share.agreementSha256 === null
  );
}

/**
 * The gate rows of the links this process serves, by token: a view of a link held here skips the
 * gate row's read (a join of the share, its owner, file, folder and versions), and goes straight to
 * the gate's policies, or, for a link that asks nothing of the visitor, straight to its admission.
 * Every visit is still admitted and counted by the database before its page leaves: caps,
 * one-time use and the one-session binding are judged there, as without this cache.
 *
 * What a row shows changes only through writes the database announces on the change feed
 * (`shares` and `accounts`, migrations 1763700001800 and 1763700001300): every process drops
 * everything it holds on either, within milliseconds of the commit. The process that makes a
 * change drops everything itself once its request has committed, before it answers
 * (`forgetCachesOnWrites`), so a revocation holds for the very next request there. While the feed
 * is not receiving nothing is served from here, and on its return everything is dropped. Expiry is
 * judged against the clock at each use; the TTL only bounds what an undelivered notification could
 * leave behind. A read that started before a drop is never kept (`mark`/`keep`).
 */
@Injectable()
export class ShareGateCache {
  static readonly ttlMs = 30_000;
  static readonly maxEntries = 10_000;
  private readonly entries = new LRUCache<string, Entry>({ max: ShareGateCache.maxEntries });
  private generation = 0;

  constructor(private readonly feed: ChangeFeed) {
    // Writes are rare beside views: dropping everything keeps the invalidation obviously complete.
    feed.subscribe('shares', () => this.clear());
    feed.subscribe('accounts', () => this.clear());
  }

  /** The link's gate row, if held, fresh and not expired by now; a segment that is not the owner's finds nothing here. */
  find(segment: string | null, token: string): ViewedShare | null {
    if (!this.feed.live) return null;
    const key = token.toLowerCase();
    const entry = this.entries.get(key);
    if (!entry) return null;
    const now = Date.now();
    if (now - entry.loadedAt >= ShareGateCache.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    const share = entry.share;
    // Expired since it was read: the database says so, and why, on the next read.
    if (share.expiresAt !== null && share.expiresAt <= now) {
      this.entries.delete(key);
      return null;
    }
    if (segment !== null && share.ownerSegment.toLowerCase() !== segment.toLowerCase()) return null;
    return share;
  }

  /** Taken before a gate row is read: what the read answers may be kept only if nothing was dropped since. */
  mark(): number {
    return this.generation;
  }

  /**
   * Keeps a gate row read after `mark`. Not of a link that its own visits change (one-time,
   * burn-after-read, one-session): its next visit must see what the last one did at once, wherever
   * it was admitted. A cap's consumption is judged by every admission again, as always. Nor of a
   * document that is not CLEAN (being scanned, or its scan failed): the scan's result is written
   * by a worker, outside any request of this process, and the very next visit must show it.
   */
  keep(share: ViewedShare, mark: number): void {
    if (mark !== this.generation || !this.feed.live || share.oneTime || share.burnAfterRead || share.oneSession) return;
    if (share.folderId === null && share.scanStatus !== 'CLEAN') return;
    this.entries.set(share.token.toLowerCase(), { share, loadedAt: Date.now() });
  }

  /** Everything may have changed: nothing held is served again, and no read in flight is kept. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
