import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { PostgresRateLimiter } from './postgres-rate-limiter.js';
import { RateBucketsRepository } from './rate-buckets.repository.js';
import { RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

/** Token buckets shared by every replica: on Redis (REDIS_URL) or on PostgreSQL. */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [RUNTIME, DataSource],
      useFactory: (runtime: Runtime, db: DataSource): RateLimiter =>
        runtime.env.REDIS_URL
          ? new RedisRateLimiter(runtime.env.REDIS_URL)
          : new PostgresRateLimiter(new RateBucketsRepository(db)),
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
