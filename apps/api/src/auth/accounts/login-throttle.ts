import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { throttleKeyOf } from '../../common/client-address.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';

interface Bucket {
  key: string;
  capacity: number;
  windowSeconds: number;
}

// Failed sign-ins allowed: per account from one client, per client over all accounts, and a
// slower ceiling per account from everywhere. A stranger's failures empty only the stranger's
// buckets, so nobody can lock an owner out from one network; a distributed guesser still
// meets the account's ceiling.
const PER_ACCOUNT_AND_CLIENT = { capacity: 10, windowSeconds: 15 * 60 };
const PER_CLIENT = { capacity: 30, windowSeconds: 15 * 60 };
const PER_ACCOUNT = { capacity: 100, windowSeconds: 60 * 60 };

/**
 * The sign-in throttle. An attempt takes a token from every bucket before the password is
 * checked, so a wave of parallel guesses is cut at the limit instead of all being evaluated;
 * a successful attempt gives its tokens back, since only failures count.
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** Takes one attempt, or throws RATE_LIMITED; the returned function gives it back. */
  async take(email: string, clientAddress: string): Promise<() => Promise<void>> {
    const account = email.trim().toLowerCase();
    const client = throttleKeyOf(clientAddress);
    const buckets: Bucket[] = [
      { key: `login:pair:${account}:${client}`, ...PER_ACCOUNT_AND_CLIENT },
      { key: `login:client:${client}`, ...PER_CLIENT },
      { key: `login:account:${account}`, ...PER_ACCOUNT },
    ];
    const decisions = await Promise.all(buckets.map((b) => this.limiter.consume(b.key, b.capacity, b.windowSeconds)));
    const giveBack = (which: Bucket[]) => async () => {
      await Promise.all(which.map((b) => this.limiter.refund(b.key, b.capacity, b.windowSeconds)));
    };
    if (decisions.every((decision) => decision.allowed)) return giveBack(buckets);
    // A refused attempt is never evaluated, so it must not count against the buckets that had room.
    await giveBack(buckets.filter((_, i) => decisions[i]!.allowed))();
    const retryAfter = Math.max(...decisions.map((decision) => decision.retryAfterSeconds));
    throw new AppError(ErrorCode.RATE_LIMITED, '登录失败次数过多，请稍后再试', {
      retryAfterSeconds: Math.max(1, retryAfter),
    });
  }
}
