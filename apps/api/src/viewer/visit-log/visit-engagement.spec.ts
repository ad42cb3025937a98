import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../common/runtime.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { DocumentCache } from '../documents/document-cache.js';
import type { DocumentReadsRepository } from './document-reads.repository.js';
import type { SectionRead, SectionReadsRepository } from './section-reads.repository.js';
import { ViewerIdentity } from '../visitor/viewer-identity.js';
import { VisitEngagement } from './visit-engagement.js';

const SHARE = '00000000-0000-4000-8000-000000000001';
const VISIT = '00000000-0000-4000-8000-000000000002';
const FILE = '00000000-0000-4000-8000-000000000003';
const OWN_FILE = '00000000-0000-4000-8000-000000000004';

function setup() {
  const identity = new ViewerIdentity({ sessionSecret: 'a'.repeat(48) } as Runtime, null as never);
  const engaged: Array<[string, string, string | null]> = [];
  const looked: Array<string | null> = [];
  const recorded: Array<{ fileId: string; reads: readonly SectionRead[] }> = [];
  const repository = {
    engage: async (visitId: string, shareId: string, fileId: string | null) => {
      engaged.push([visitId, shareId, fileId]);
      return true;
    },
  } as unknown as DocumentReadsRepository;
  const limiter = { consume: async () => ({ allowed: true, retryAfterSeconds: 0 }) } as unknown as RateLimiter;
  const documents = {
    sections: async () => [
      { index: 0, heading: 'One' },
      { index: 1, heading: 'Two' },
    ],
  } as unknown as DocumentCache;
  const sections = {
    served: async (_shareId: string, fileId: string | null) => {
      looked.push(fileId);
      return { fileId: fileId ?? OWN_FILE, fileName: 'doc.md', kind: 'MARKDOWN', versionId: 'v1' };
    },
    record: async (_visitId: string, _shareId: string, fileId: string, reads: readonly SectionRead[]) => {
      recorded.push({ fileId, reads });
      return reads.length;
    },
  } as unknown as SectionReadsRepository;
  return {
    sut: new VisitEngagement(identity, repository, limiter, documents, sections),
    identity,
    engaged,
    looked,
    recorded,
  };
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
    const { sut, identity, engaged, looked } = setup();
    const forged = `${SHARE}.${VISIT}.${FILE}.${identity.visits.digest(`${SHARE}.${VISIT}`)}`;
    for (const v of [
      forged,
      identity.visits.sign(`${SHARE}.${VISIT}.${FILE}.x`),
      identity.visits.sign(`${SHARE}.${VISIT}.nope`),
    ]) {
      expect(await sut.report({ v, ...reading, s: '0:1000' })).toBe('malformed');
    }
    expect(engaged).toEqual([]);
    expect(looked).toEqual([]);
  });

  it('records the sections the served version of the named document has, with their headings', async () => {
    const { sut, identity, engaged, looked, recorded } = setup();
    const v = identity.visits.sign(`${SHARE}.${VISIT}.${FILE}`);
    expect(await sut.report({ v, ...reading, s: '1:2500,0:900,7:100' })).toBe('recorded');
    expect(engaged).toEqual([[VISIT, SHARE, FILE]]);
    expect(looked).toEqual([FILE]);
    expect(recorded).toEqual([
      {
        fileId: FILE,
        reads: [
          { section: 0, heading: 'One', ms: 900 },
          { section: 1, heading: 'Two', ms: 2500 },
        ],
      },
    ]);
  });

  it("takes the share's own file for the sections of an older page's two-part value", async () => {
    const { sut, identity, looked, recorded } = setup();
    expect(await sut.report({ v: identity.visits.sign(`${SHARE}.${VISIT}`), ...reading, s: '0:1000' })).toBe('recorded');
    expect(looked).toEqual([null]);
    expect(recorded).toEqual([{ fileId: OWN_FILE, reads: [{ section: 0, heading: 'One', ms: 1000 }] }]);
  });

  it('looks nothing up for a beacon without readable section times, and still records the rest', async () => {
    const { sut, identity, engaged, looked } = setup();
    const v = identity.visits.sign(`${SHARE}.${VISIT}.${FILE}`);
    expect(await sut.report({ v, ...reading, s: 'junk,0:-1,1:0' })).toBe('recorded');
    expect(engaged).toHaveLength(1);
    expect(looked).toEqual([]);
  });
});
