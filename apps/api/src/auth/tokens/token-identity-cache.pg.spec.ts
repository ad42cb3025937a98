import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Runtime } from '../../common/runtime.js';
import { ChangeFeed } from '../../database/change-feed.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import { Administrators } from '../accounts/administrators.js';
import { ApiTokensRepository } from './api-tokens.repository.js';
import { sha256Hex } from '../secrets.js';
import { TokenIdentityCache } from './token-identity-cache.js';

/** The repository, counting the database reads the cache makes. */
class CountingRepository extends ApiTokensRepository {
  reads = 0;
  override findLiveByPrefix(prefix: string) {
    this.reads++;
    return super.findLiveByPrefix(prefix);
  }
}

describe(`${TokenIdentityCache.name} on PostgreSQL's change feed`, () => {
  let database: TestDatabase;
  let db: DataSource;
  let feed: ChangeFeed;
  let repository: CountingRepository;
  let sut: TokenIdentityCache;
  let heard: string[];
  let prefixCounter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    const url = (db.options as { url: string }).url;
    feed = new ChangeFeed({ databaseUrl: url } as Runtime);
    await feed.onModuleInit();
    repository = new CountingRepository(db, new Administrators([], false));
    sut = new TokenIdentityCache(repository, feed);
    heard = [];
    feed.subscribe('accounts', (key) => heard.push(`accounts:${key}`));
    feed.subscribe('tokens', (key) => heard.push(`tokens:${key}`));
  });
  afterAll(async () => {
    await feed?.onApplicationShutdown();
    await database?.drop();
  });

  async function token(userId: string): Promise<string> {
    const prefix = `p${String(++prefixCounter).padStart(11, '0')}`;
    await db.query(
      `INSERT INTO api_tokens (user_id, name, prefix, secret_hash, rate_limit_per_minute) VALUES ($1, 'test', $2, $3, 600)`,
      [userId, prefix, sha256Hex('secret')],
    );
    return prefix;
  }

  /**
   * Notifications arrive in commit order: once a change of an unrelated account has been heard,
   * every notification committed before it has been handled.
   */
  async function drainFeed(): Promise<void> {
    const marker = await createTestUser(db);
    await db.query('UPDATE users SET quota_bytes = quota_bytes + 1 WHERE id = $1', [marker.id]);
    await vi.waitFor(() => expect(heard).toContain(`accounts:${marker.id}`), { timeout: 10_000 });
  }

  it('a revocation committed by any process is heard, and the next call is refused', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    expect((await sut.find(prefix))?.user.id).toBe(user.id);
    await db.query('UPDATE api_tokens SET revoked_at = now() WHERE prefix = $1', [prefix]);
    await vi.waitFor(() => expect(heard).toContain(`tokens:${prefix}`), { timeout: 10_000 });
    expect(await sut.find(prefix)).toBeNull();
  });

  it("a change of the account's usage reaches every cached token of it", async () => {
    const user = await createTestUser(db);
    const [first, second] = [await token(user.id), await token(user.id)];
    expect((await sut.find(first))?.user.usedBytes).toBe(0);
    expect((await sut.find(second))?.user.usedBytes).toBe(0);
    await db.query('UPDATE users SET used_bytes = 4096 WHERE id = $1', [user.id]);
    await vi.waitFor(() => expect(heard).toContain(`accounts:${user.id}`), { timeout: 10_000 });
    expect((await sut.find(first))?.user.usedBytes).toBe(4096);
    expect((await sut.find(second))?.user.usedBytes).toBe(4096);
  });

  it('an expiry moved into the past is heard (the caller then judges it against the clock)', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    expect((await sut.find(prefix))?.expiresAt).toBeNull();
    await db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE prefix = $1`, [prefix]);
    await vi.waitFor(() => expect(heard).toContain(`tokens:${prefix}`), { timeout: 10_000 });
    expect((await sut.find(prefix))!.expiresAt!).toBeLessThan(Date.now());
  });

  it('a deleted account takes its tokens with it', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    expect(await sut.find(prefix)).not.toBeNull();
    await db.query('DELETE FROM users WHERE id = $1', [user.id]);
    await vi.waitFor(() => expect(heard).toContain(`accounts:${user.id}`), { timeout: 10_000 });
    expect(await sut.find(prefix)).toBeNull();
  });

  it('bookkeeping (last use, sign-in time) announces nothing and keeps the entry', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    await sut.find(prefix);
    const reads = repository.reads;
    await db.query('UPDATE api_tokens SET last_used_at = now() WHERE prefix = $1', [prefix]);
    await db.query('UPDATE users SET last_sign_in_at = now(), totp_last_step = 1 WHERE id = $1', [user.id]);
    await drainFeed();
    expect(heard).not.toContain(`tokens:${prefix}`);
    expect(heard).not.toContain(`accounts:${user.id}`);
    await sut.find(prefix);
    expect(repository.reads).toBe(reads);
  });

  it('a change rolled back announces nothing', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    await db
      .transaction(async (manager) => {
        await manager.query('UPDATE api_tokens SET revoked_at = now() WHERE prefix = $1', [prefix]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await drainFeed();
    expect(heard).not.toContain(`tokens:${prefix}`);
  });

  it('while the feed is down nothing is served from memory; back, it starts over', async () => {
    const user = await createTestUser(db);
    const prefix = await token(user.id);
    await sut.find(prefix);
    expect(sut.size).toBeGreaterThan(0);
    // The listening connection dies (a restart of PostgreSQL, a network cut).
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    await vi.waitFor(() => expect(feed.live).toBe(false), { timeout: 10_000 });
    const reads = repository.reads;
    await sut.find(prefix);
    await sut.find(prefix);
    expect(repository.reads).toBe(reads + 2);
    await vi.waitFor(() => expect(feed.live).toBe(true), { timeout: 10_000 });
    expect(sut.size).toBe(0);
    await sut.find(prefix);
    await sut.find(prefix);
    expect(repository.reads).toBe(reads + 3);
  });
});
