import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { throttleKeyOf } from '../../common/client-address.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';

interface Bucket {
  key: string;
  capacity: number;
  windowSeconds: number;
}

// Mails sent: per address (nobody's inbox gets flooded), per client, and for the whole instance
// (its SMTP reputation, against a spread-out flood of addresses that do not exist).
export const SENDS_PER_ADDRESS = { capacity: 5, windowSeconds: 60 * 60 };
export const SENDS_PER_CLIENT = { capacity: 20, windowSeconds: 60 * 60 };
export const SENDS_PER_INSTANCE = { capacity: 1_000, windowSeconds: 60 * 60 };

// Codes tried: per address from one client, per client over all addresses, and a ceiling per
// address from everywhere. With one live code in a million and five tries per code, a guesser
// at the address ceiling needs decades on average.
export const VERIFIES_PER_ADDRESS_AND_CLIENT = { capacity: 10, windowSeconds: 15 * 60 };
export const VERIFIES_PER_CLIENT = { capacity: 30, windowSeconds: 15 * 60 };
export const VERIFIES_PER_ADDRESS = { capacity: 30, windowSeconds: 60 * 60 };

/**
 * Throttles for e-mail codes, keyed by the address whether or not it has an account, so a
 * refusal tells nothing about it. Attempts are taken before anything is looked at; a right code
 * gives its verify tokens back, a sent mail never does.
 */
@Injectable()
export class EmailCodeThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** Takes one mail, or throws RATE_LIMITED. */
  async takeSend(email: string, clientAddress: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const client = throttleKeyOf(clientAddress);
    await this.take(
      [
        { key: `email-send:address:${address}`, ...SENDS_PER_ADDRESS },
        { key: `email-send:client:${client}`, ...SENDS_PER_CLIENT },
        { key: 'email-send:instance', ...SENDS_PER_INSTANCE },
      ],
      '发送验证码过于频繁，请稍后再试',
    );
  }

  /** Takes one code attempt, or throws RATE_LIMITED; the returned function gives it back. */
  async takeVerify(email: string, clientAddress: string): Promise<() => Promise<void>> {
    const address = email.trim().toLowerCase();
    const client = throttleKeyOf(clientAddress);
    return this.take(
      [
        { key: `email-verify:pair:${address}:${client}`, ...VERIFIES_PER_ADDRESS_AND_CLIENT },
        { key: `email-verify:client:${client}`, ...VERIFIES_PER_CLIENT },
        { key: `email-verify:address:${address}`, ...VERIFIES_PER_ADDRESS },
      ],
      '验证码尝试次数过多，请稍后再试',
    );
  }

  private async take(buckets: Bucket[], message: string): Promise<() => Promise<void>> {
    const decisions = await Promise.all(buckets.map((b) => this.limiter.consume(b.key, b.capacity, b.windowSeconds)));
    const giveBack = (which: Bucket[]) => async () => {
      await Promise.all(which.map((b) => this.limiter.refund(b.key, b.capacity, b.windowSeconds)));
    };
    if (decisions.every((decision) => decision.allowed)) return giveBack(buckets);
    // A refused attempt does nothing, so it must not count against the buckets that had room.
    await giveBack(buckets.filter((_, i) => decisions[i]!.allowed))();
    const retryAfter = Math.max(...decisions.map((decision) => decision.retryAfterSeconds));
    throw new AppError(ErrorCode.RATE_LIMITED, message, { retryAfterSeconds: Math.max(1, retryAfter) });
  }
}
