import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { reconnectSoon } from '../common/redis-reconnect.js';
import { RateLimiter, retryAfter, type RateDecision } from './rate-limiter.js';

// Runs atomically inside Redis, so every api process shares one exact bucket per key.
const CONSUME = `
local capacity = tonumber(ARGV[1])
local per_ms = capacity / (tonumber(ARGV[2]) * 1000)
local take = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = capacity; at = now end
local level = math.min(capacity, tokens + (now - at) * per_ms)
local allowed = 0
if take == 1 and level >= 1 then level = level - 1; allowed = 1 end
if take == -1 then level = math.min(capacity, level + 1) end
if take ~= 0 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(level), 'at', now)
  redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000 * 2))
end
return {allowed, tostring(level)}
`;

@Injectable()
export class RedisRateLimiter extends RateLimiter implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(url: string) {
    super();
    // Every bearer call takes from a bucket: the takes of concurrent calls leave in one socket
    // write (auto-pipelining) instead of one write and one Redis wake-up each. Each script still
    // runs atomically, in the order the calls made them.
    // While Redis is down a take fails at once (no offline queue, one retry, a bounded wait for
    // the answer) and the call answers 503 UNAVAILABLE; the client tries to reconnect every second.
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: 2_000,
      retryStrategy: reconnectSoon,
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('sharedownBucket', { numberOfKeys: 1, lua: CONSUME });
  }

  private async run(key: string, capacity: number, windowSeconds: number, take: -1 | 1): Promise<[number, number]> {
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, string]>>)[
      'sharedownBucket'
    ]!;
    const [allowed, level] = await command.call(this.redis, `sharedown:bucket:${key}`, capacity, windowSeconds, take);
    return [allowed, Number(level)];
  }

  async consume(key: string, capacity: number, windowSeconds = 60): Promise<RateDecision> {
    const [allowed, tokens] = await this.run(key, capacity, windowSeconds, 1);
    return {
      allowed: allowed === 1,
      remaining: Math.max(0, Math.floor(tokens)),
      retryAfterSeconds: allowed === 1 ? 0 : retryAfter(tokens, capacity, windowSeconds),
    };
  }

  async refund(key: string, capacity: number, windowSeconds = 60): Promise<void> {
    await this.run(key, capacity, windowSeconds, -1);
  }

  /** Redis expires every bucket by itself (twice its window after the last use). */
  async sweep(): Promise<number> {
    return 0;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
