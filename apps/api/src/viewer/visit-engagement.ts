import { Injectable } from '@nestjs/common';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ViewerIdentity } from './viewer-identity.js';
import { VisitLogRepository, type Engagement } from './visit-log.repository.js';

/** A beacon's form is four short fields; anything longer is not from the viewer page. */
export const MAX_BEACON_BYTES = 512;
/** A page sends one every few seconds at most, and when it is hidden or closed. */
const BEACONS_PER_MINUTE = 30;
const MAX_DURATION_MS = 24 * 3600_000;

export type BeaconOutcome = 'recorded' | 'ignored' | 'malformed' | 'throttled';

function parseEngagement(form: Record<string, string>): Engagement | null {
  const { t, d, c } = form;
  if (t === undefined || d === undefined || !/^\d{1,8}$/.test(t) || !/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(d)) return null;
  if (c !== undefined && c !== '0' && c !== '1') return null;
  return { durationMs: Math.min(Number(t), MAX_DURATION_MS), scrollDepth: Number(d), completed: c === '1' };
}

/**
 * The viewer page's engagement beacons: how long the page was visible and in use, how far the
 * reader scrolled, whether the end was reached. A beacon names its visit by the id the page was
 * given, signed with the share's id, so it can only ever update that one visit; the database
 * only raises what it stored (see VisitLogRepository.engage), and visits of visitors who asked
 * not to be tracked are not updated at all.
 */
@Injectable()
export class VisitEngagement {
  constructor(
    private readonly identity: ViewerIdentity,
    private readonly repository: VisitLogRepository,
    private readonly limiter: RateLimiter,
  ) {}

  async report(form: Record<string, string>): Promise<BeaconOutcome> {
    const signed = this.identity.visits.verify(form.v);
    const engagement = parseEngagement(form);
    if (signed === null || engagement === null) return 'malformed';
    const [shareId, visitId] = signed.split('.');
    if (!shareId || !visitId) return 'malformed';
    const decision = await this.limiter.consume(`visit-beacon:${visitId}`, BEACONS_PER_MINUTE, 60);
    if (!decision.allowed) return 'throttled';
    return (await this.repository.engage(visitId, shareId, engagement)) ? 'recorded' : 'ignored';
  }
}
