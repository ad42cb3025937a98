import { Injectable } from '@nestjs/common';
import { RateLimiter, retryAfter, type RateDecision } from './rate-limiter.js';
import type { RateBucketsRepository } from './rate-buckets.repository.js';

/** Buckets in PostgreSQL (RateBucketsRepository): one statement per call, serialized by the bucket's row lock. */
@Injectable()
export class PostgresRateLimiter extends RateLimiter {
  constructor(private readonly buckets: RateBucketsRepository) {
    super();
  }

  async consume(key: string, capacity: number, windowSeconds = 60): Promise<RateDecision> {
    const { tokens, allowed } = await this.buckets.take(key, capacity, windowSeconds);
    return {
      allowed,
      remaining: Math.max(0, Math.floor(tokens)),
      retryAfterSeconds: allowed ? 0 : retryAfter(tokens, capacity, windowSeconds),
    };
  }

  /**
   * A bucket untouched for longer than its window has refilled completely, and a missing bucket
   * reads as full: such rows can go. No bucket's window is longer than a day.
   */
  async sweep(batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.buckets.deleteIdle(batch);
      total += count;
      if (count < batch) return total;
    }
  }

  async refund(key: string, capacity: number, windowSeconds = 60): Promise<void> {
    await this.buckets.giveBack(key, capacity, windowSeconds);
  }
}
