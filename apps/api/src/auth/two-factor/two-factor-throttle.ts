import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { throttleKeyOf } from '../../common/client-address.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';

/** Where a code is typed: at sign-in, or on the account page to turn 2FA on or off or renew recovery codes. */
export type CodeScope = 'sign-in' | 'manage';

interface Bucket {
  key: string;
  capacity: number;
  windowSeconds: number;
}

// Wrong codes allowed per account from one client, and a ceiling per account from everywhere.
// With three valid codes in a million at any moment, 30 guesses an hour leave a guesser about
// eleven thousand years on average, while the owner's own client keeps its own five.
export const CODES_PER_ACCOUNT_AND_CLIENT = { capacity: 5, windowSeconds: 15 * 60 };
export const CODES_PER_ACCOUNT = { capacity: 30, windowSeconds: 60 * 60 };

/**
 * The second-factor throttle, shaped like the sign-in throttle: an attempt takes a token from
 * every bucket before the code is checked, so a parallel wave is cut at the limit; a right code
 * gives its tokens back. Sign-in and the account page count separately, so a flood of guesses at
 * the sign-in form does not keep the signed-in owner from turning 2FA off.
 */
@Injectable()
export class TwoFactorThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** Takes one attempt, or throws RATE_LIMITED; the returned function gives it back. */
  async take(userId: string, clientAddress: string, scope: CodeScope): Promise<() => Promise<void>> {
    const client = throttleKeyOf(clientAddress);
    const buckets: Bucket[] = [
      { key: `2fa:${scope}:pair:${userId}:${client}`, ...CODES_PER_ACCOUNT_AND_CLIENT },
      { key: `2fa:${scope}:account:${userId}`, ...CODES_PER_ACCOUNT },
    ];
    const decisions = await Promise.all(buckets.map((b) => this.limiter.consume(b.key, b.capacity, b.windowSeconds)));
    const giveBack = (which: Bucket[]) => async () => {
      await Promise.all(which.map((b) => this.limiter.refund(b.key, b.capacity, b.windowSeconds)));
    };
    if (decisions.every((decision) => decision.allowed)) return giveBack(buckets);
    await giveBack(buckets.filter((_, i) => decisions[i]!.allowed))();
    const retryAfter = Math.max(...decisions.map((decision) => decision.retryAfterSeconds));
    throw new AppError(ErrorCode.RATE_LIMITED, '验证码错误次数过多，请稍后再试', {
      retryAfterSeconds: Math.max(1, retryAfter),
    });
  }
}
