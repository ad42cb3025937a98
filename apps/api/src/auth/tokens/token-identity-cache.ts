import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ChangeFeed } from '../../database/change-feed.js';
import { ApiTokensRepository, type TokenByPrefix } from './api-tokens.repository.js';

interface Entry {
  loadedAt: number;
  token: Promise<TokenByPrefix | null>;
  /** Known once the load has answered: the workspace's id and the creator's (the same for a personal token). */
  userIds: string[] | null;
}

/**
 * The live API tokens this process has seen, by prefix, with their owner's account as the bearer
 * routes see it (quota and usage included): a bearer call then needs no database round trip.
 *
 * Any change of a token or of its owner's account row drops the entry in every process: the
 * database announces it on the change feed (`tokens`, `accounts`; triggers of migration
 * 1763700001300) in the changing transaction, so other replicas drop it within milliseconds of
 * the commit; the process that made a change also drops it itself once committed (`forgetToken`,
 * `forgetUser`), before it answers. While the feed is not receiving nothing is served from here,
 * and on its return everything is dropped. Expiry is judged by the caller against the clock at
 * each use. The TTL only bounds what an undelivered notification could leave behind.
 * Unknown and revoked tokens are never kept: a bad token costs a lookup, as before.
 */
@Injectable()
export class TokenIdentityCache {
  static readonly ttlMs = 60_000;
  static readonly maxEntries = 10_000;
  private readonly entries: LRUCache<string, Entry>;
  private readonly prefixesOf = new Map<string, Set<string>>();
  /** Loads still in flight: their owner is not known yet, so any account change drops them. */
  private readonly loading = new Map<string, Entry>();

  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly feed: ChangeFeed,
  ) {
    this.entries = new LRUCache<string, Entry>({
      max: TokenIdentityCache.maxEntries,
      dispose: (entry, prefix) => this.unindex(prefix, entry),
    });
    feed.subscribe('tokens', (prefix) => (prefix === null ? this.clear() : this.forgetToken(prefix)));
    feed.subscribe('accounts', (userId) => (userId === null ? this.clear() : this.forgetUser(userId)));
  }

  /** The unrevoked token with this prefix and its owner, or null. */
  find(prefix: string): Promise<TokenByPrefix | null> {
    const now = Date.now();
    const live = this.feed.live;
    if (live) {
      const cached = this.entries.get(prefix);
      if (cached && now - cached.loadedAt < TokenIdentityCache.ttlMs) return cached.token;
    }
    const token = this.tokens.findLiveByPrefix(prefix);
    if (!live) return token;
    // Concurrent misses share one query; what a notification drops meanwhile is never kept.
    const entry: Entry = { loadedAt: now, token, userIds: null };
    this.entries.set(prefix, entry);
    this.loading.set(prefix, entry);
    token.then(
      (found) => {
        if (this.loading.get(prefix) === entry) this.loading.delete(prefix);
        if (this.entries.peek(prefix) !== entry) return;
        // A shared workspace's token is judged by its creator's membership and role at each call,
        // read from the database every time: a removal or demotion holds at once on every replica.
        if (!found || found.user.id !== found.actor.id) {
          this.entries.delete(prefix);
          return;
        }
        // Shared by every call with this token until dropped: nobody may change it in place.
        Object.freeze(found.user);
        Object.freeze(found.actor);
        Object.freeze(found.scopes);
        Object.freeze(found);
        // A change of the workspace (its usage, its memberships) or of the creator's account drops it.
        entry.userIds = [...new Set([found.user.id, found.actor.id])];
        for (const userId of entry.userIds) {
          let prefixes = this.prefixesOf.get(userId);
          if (!prefixes) this.prefixesOf.set(userId, (prefixes = new Set()));
          prefixes.add(prefix);
        }
      },
      () => {
        if (this.loading.get(prefix) === entry) this.loading.delete(prefix);
        if (this.entries.peek(prefix) === entry) this.entries.delete(prefix);
      },
    );
    return token;
  }

  /** A token changed (revoked, deleted): the next call with it reads the database. */
  forgetToken(prefix: string): void {
    this.entries.delete(prefix);
    this.loading.delete(prefix);
  }

  /** An account or workspace changed (usage, quota, address, memberships, deletion): every token of it is read again. */
  forgetUser(userId: string): void {
    for (const prefix of [...(this.prefixesOf.get(userId) ?? [])]) this.entries.delete(prefix);
    for (const prefix of [...this.loading.keys()]) this.forgetToken(prefix);
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.prefixesOf.clear();
  }

  private unindex(prefix: string, entry: Entry): void {
    for (const userId of entry.userIds ?? []) {
      const prefixes = this.prefixesOf.get(userId);
      if (!prefixes) continue;
      prefixes.delete(prefix);
      if (prefixes.size === 0) this.prefixesOf.delete(userId);
    }
  }
}
