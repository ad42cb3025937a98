import { Injectable } from '@nestjs/common';
import { RateLimiter } from '../rate-limit/rate-limiter.js';

/** Visit mails of one share an hour; what goes over is folded into a summary mail. */
export const VISIT_MAILS_PER_SHARE_HOUR = 10;
/** Visit mails to one owner an hour, over all their shares. */
export const VISIT_MAILS_PER_OWNER_HOUR = 30;
/** How long a share's summary waits after the visit that started it, so a burst lands in one mail. */
export const SUMMARY_DELAY_MS = 15_000;
/** At most one summary mail per share this often: a sustained flood folds into one mail per ten minutes. */
export const SUMMARY_INTERVAL_SECONDS = 600;

/**
 * The cap on `notify: every` mails: 40 visits in a minute must not be 40 mails. Both buckets live
 * in the shared rate limiter, so the cap holds across workers. In-app notifications are not capped.
 */
@Injectable()
export class NotificationMailCap {
  constructor(private readonly limiter: RateLimiter) {}

  /** Whether this visit's mail may go out on its own; a refusal takes nothing from either bucket. */
  async admit(ownerId: string, shareId: string): Promise<boolean> {
    const shareKey = `visit-mail:share:${shareId}`;
    const perShare = await this.limiter.consume(shareKey, VISIT_MAILS_PER_SHARE_HOUR, 3600);
    if (!perShare.allowed) return false;
    const perOwner = await this.limiter.consume(`visit-mail:owner:${ownerId}`, VISIT_MAILS_PER_OWNER_HOUR, 3600);
    if (perOwner.allowed) return true;
    // The owner's cap refused: the share's token was not used after all.
    await this.limiter.refund(shareKey, VISIT_MAILS_PER_SHARE_HOUR, 3600);
    return false;
  }

  /**
   * When a share's next summary mail may go: SUMMARY_DELAY_MS from now for the first of a while,
   * else once SUMMARY_INTERVAL_SECONDS have passed since the last one. Asked only when no summary
   * of the share is waiting already.
   */
  async summaryDelayMs(shareId: string): Promise<number> {
    const slot = await this.limiter.consume(`visit-mail:summary:${shareId}`, 1, SUMMARY_INTERVAL_SECONDS);
    return slot.allowed ? SUMMARY_DELAY_MS : Math.max(SUMMARY_DELAY_MS, slot.retryAfterSeconds * 1000);
  }
}
