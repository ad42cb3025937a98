import { describe, expect, it } from 'vitest';
import type { Runtime } from '../common/runtime.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { DocumentReadsRepository } from './document-reads.repository.js';
import { ViewerIdentity } from './viewer-identity.js';
import { VisitEngagement } from './visit-engagement.js';

const SHARE = '00000000-0000-4000-8000-000000000001';
const VISIT = '00000000-0000-4000-8000-000000000002';
const FILE = '00000000-0000-4000-8000-000000000003';

function setup() {
  const identity = new ViewerIdentity({ sessionSecret: 'a'.repeat(48) } as Runtime, null as never);
  const engaged: Array<[string, string, string | null]> = [];
  const repository = {
    engage: async (visitId: string, shareId: string, fileId: string | null) => {
      engaged.push([visitId, shareId, fileId]);
      return true;
    },
  } as unknown as DocumentReadsRepository;
  const limiter = { consume: async () => ({ allowed: true, retryAfterSeconds: 0 }) } as unknown as RateLimiter;
  return { sut: new VisitEngagement(identity, repository, limiter), identity, engaged };
}

const reading = { t: '3000', d: '0.5', c: '1' };

describe(VisitEngagement.name, () => {
  it('updates the read of the document the page names: sign(shareId.visitId.fileId)', async () => {
    const { sut, identity, engaged } = setup();
    expect(await sut.report({ v: identity.visits.sign(`${SHARE}.${VISIT}.${FILE}`), ...reading })).toBe('recorded');
    expect(engaged).toEqual([[VISIT, SHARE, FILE]]);
  });

  it('still takes the visit alone from a page served before documents were named', async () => {
    const { sut, identity, engaged } = setup();
    expect(await sut.report({ v: identity.visits.sign(`${SHARE}.${VISIT}`), ...reading })).toBe('recorded');
    expect(engaged).toEqual([[VISIT, SHARE, null]]);
  });

  it('refuses a forged, extended or non-uuid value without touching the database', async () => {
    const { sut, identity, engaged } = setup();
    const forged = `${SHARE}.${VISIT}.${FILE}.${identity.visits.digest(`${SHARE}.${VISIT}`)}`;
    for (const v of [
      forged,
      identity.visits.sign(`${SHARE}.${VISIT}.${FILE}.x`),
      identity.visits.sign(`${SHARE}.${VISIT}.nope`),
    ]) {
      expect(await sut.report({ v, ...reading })).toBe('malformed');
    }
    expect(engaged).toEqual([]);
  });
});
