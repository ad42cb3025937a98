import { DataSource } from 'typeorm';
import { affectedCount } from '../common/sql.js';
import type { Columns } from '../database/rows.js';

/** A bucket right after a call: its level and whether that call got a token. */
export interface BucketState {
  tokens: number;
  allowed: boolean;
}

/**
 * SQL for the `rate_buckets` table. One INSERT … ON CONFLICT DO UPDATE per take: the row lock
 * serializes concurrent callers, so N parallel requests on a bucket of N admit exactly N. The
 * level refills by the database's clock (clock_timestamp()), the same for every replica.
 */
export class RateBucketsRepository {
  constructor(private readonly db: DataSource) {}

  /** Refills the bucket for the time since its last use, then takes one token if there is one. */
  async take(key: string, capacity: number, windowSeconds: number): Promise<BucketState> {
    const rows: Array<Columns<'rate_buckets', 'tokens' | 'last_allowed'>> = await this.db.query(
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
    return { tokens, allowed };
  }

  /** Deletes up to `batch` buckets untouched for over a day; answers how many went. */
  async deleteIdle(batch: number): Promise<number> {
    return affectedCount(
      await this.db.query(
        `DELETE FROM rate_buckets WHERE key IN (
         SELECT key FROM rate_buckets WHERE updated_at < clock_timestamp() - interval '1 day' LIMIT $1)`,
        [batch],
      ),
    );
  }

  /** Gives one token back (refilled for the time since its last use, never above capacity). */
  async giveBack(key: string, capacity: number, windowSeconds: number): Promise<void> {
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
