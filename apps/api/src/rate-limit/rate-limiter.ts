/** The outcome of taking one token from a bucket. */
export interface RateDecision {
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** Seconds until one token is available again (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * A token bucket per key: `capacity` tokens, refilled continuously at
 * `capacity` per `windowSeconds`. Implementations must be atomic across processes.
 */
export abstract class RateLimiter {
  abstract consume(key: string, capacity: number, windowSeconds?: number): Promise<RateDecision>;
  /**
   * Gives back one token taken by `consume` (never above capacity): for throttles that take an
   * attempt before knowing whether it counts, such as sign-in, where only failures count.
   */
  abstract refund(key: string, capacity: number, windowSeconds?: number): Promise<void>;
  /** Deletes buckets that have been full (untouched for longer than any window); answers how many. */
  abstract sweep(): Promise<number>;
}

export function retryAfter(tokens: number, capacity: number, windowSeconds: number): number {
  if (tokens >= 1) return 0;
  return Math.max(1, Math.ceil(((1 - tokens) * windowSeconds) / capacity));
}
