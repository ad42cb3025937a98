import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { DocumentCache } from './document-cache.js';
import type { SectionRead, SectionReadsRepository } from './section-reads.repository.js';
import { Signer } from './signer.js';
import type { ViewerIdentity } from './viewer-identity.js';
import { VisitEngagement } from './visit-engagement.js';
import type { Engagement, VisitLogRepository } from './visit-log.repository.js';

const SHARE = '11111111-1111-4111-8111-111111111111';
const VISIT = '22222222-2222-4222-8222-222222222222';
const OWN_FILE = '33333333-3333-4333-8333-333333333333';
const OTHER_FILE = '44444444-4444-4444-8444-444444444444';

describe(VisitEngagement.name, () => {
  const setup = () => {
    const visits = new Signer('secret', 'visit');
    const engaged: Array<[string, string, Engagement]> = [];
    const recorded: Array<{ fileId: string; reads: readonly SectionRead[] }> = [];
    const looked: Array<string | null> = [];
    const repository = { engage: async (v: string, s: string, e: Engagement) => (engaged.push([v, s, e]), true) };
    const sections = {
      served: async (_share: string, fileId: string | null) => {
        looked.push(fileId);
        return {
          fileId: fileId ?? OWN_FILE,
          fileName: 'doc.md',
          kind: 'MARKDOWN' as const,
          versionId: `v-${fileId ?? OWN_FILE}`,
        };
      },
      record: async (_visit: string, _share: string, fileId: string, reads: readonly SectionRead[]) => {
        recorded.push({ fileId, reads });
        return reads.length;
      },
    };
    const documents = {
      sections: async () => [
        { index: 0, heading: 'One' },
        { index: 1, heading: 'Two' },
      ],
    };
    const limiter = { consume: async () => ({ allowed: true }) };
    const sut = new VisitEngagement(
      { visits } as unknown as ViewerIdentity,
      repository as unknown as VisitLogRepository,
      limiter as unknown as RateLimiter,
      documents as unknown as DocumentCache,
      sections as unknown as SectionReadsRepository,
    );
    return { sut, visits, engaged, recorded, looked };
  };
  const fields = { t: '4000', d: '0.5', c: '0' };

  it('records the sections of the document the value names', async () => {
    const { sut, visits, engaged, recorded, looked } = setup();
    const v = visits.sign(`${SHARE}.${VISIT}.${OTHER_FILE}`);
    expect(await sut.report({ v, ...fields, s: '1:2500,0:900,7:100' })).toBe('recorded');
    expect(engaged).toEqual([[VISIT, SHARE, { durationMs: 4000, scrollDepth: 0.5, completed: false }]]);
    expect(looked).toEqual([OTHER_FILE]);
    expect(recorded).toEqual([
      {
        fileId: OTHER_FILE,
        reads: [
          { section: 0, heading: 'One', ms: 900 },
          { section: 1, heading: 'Two', ms: 2500 },
        ],
      },
    ]);
  });

  it("still takes an older page's two-part value: the share's own file", async () => {
    const { sut, visits, recorded, looked } = setup();
    expect(await sut.report({ v: visits.sign(`${SHARE}.${VISIT}`), ...fields, s: '0:1000' })).toBe('recorded');
    expect(looked).toEqual([null]);
    expect(recorded).toEqual([{ fileId: OWN_FILE, reads: [{ section: 0, heading: 'One', ms: 1000 }] }]);
  });

  it('looks nothing up for a beacon without section times, and refuses a value of another shape', async () => {
    const { sut, visits, engaged, looked } = setup();
    expect(await sut.report({ v: visits.sign(`${SHARE}.${VISIT}.${OWN_FILE}`), ...fields, s: 'junk' })).toBe('recorded');
    expect(looked).toEqual([]);
    expect(await sut.report({ v: visits.sign(`${SHARE}.${VISIT}.not-a-file`), ...fields })).toBe('malformed');
    expect(await sut.report({ v: visits.sign(`${SHARE}.${VISIT}.${OWN_FILE}.x`), ...fields })).toBe('malformed');
    expect(await sut.report({ v: `${SHARE}.${VISIT}.${OWN_FILE}.forged`, ...fields })).toBe('malformed');
    expect(engaged).toHaveLength(1);
  });
});
