import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount } from '../common/sql.js';
import { RateLimiter, retryAfter, type RateDecision } from './rate-limiter.js';

/**
 * Buckets in PostgreSQL. One INSERT … ON CONFLICT DO UPDATE per call: the row lock
 * serializes concurrent callers, so N parallel requests on a bucket of N admit exactly N.
 */
@Injectable()
export class PostgresRateLimiter extends RateLimiter {
  constructor(private readonly db: DataSource) {
    super();
  }

  async consume(key: string, capacity: number, windowSeconds = 60): Promise<RateDecision> {
    const rows: Array<{ tokens: number; last_allowed: boolean }> = await this.db.query(
      `WITH refill AS (SELECT $2::double precision AS capacity, $2::double precision / $3::double precision AS per_second)
       INSERT INTO rate_buckets AS b (key, tokens, last_allowed, updated_at)
       SELECT $1, capacity - 1, capacity >= 1, clock_timestamp() FROM refill
       ON CONFLICT (key) DO UPDATE SET
         tokens = (SELECT CASE WHEN level >= 1 THEN level - 1 ELSE level END FROM (
                     SELECT least(r.capacity, b.tokens + extract(epoch FROM clock_timestamp() - b.updated_at) * r.per_second) AS level
                     FROM refill r) l),
         last_allowed = (SELECT least(r.capacity, b.tokens + extract(epoch FROM clock_timestamp() - b.updated_at) * r.per_second) >= 1 FROM refill r),
         updated_at = clock_timestamp()
       RETURNING tokens, last_allowed`,
      [key, capacity, windowSeconds],
    );
    const { tokens, last_allowed: allowed } = rows[0]!;
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
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM rate_buckets WHERE key IN (
           SELECT key FROM rate_buckets WHERE updated_at < clock_timestamp() - interval '1 day' LIMIT $1)`,
          [batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }

  async refund(key: string, capacity: number, windowSeconds = 60): Promise<void> {
    await this.db.query(
      `UPDATE rate_buckets SET
         tokens = least($2::double precision,
                        tokens + extract(epoch FROM clock_timestamp() - updated_at) * $2::double precision / $3::double precision + 1),
         updated_at = clock_timestamp()
       WHERE key = $1`,
      [key, capacity, windowSeconds],
    );
  }
}
