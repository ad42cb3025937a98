import { describe, expect, it } from 'vitest';
import type { ShareVisit } from '../api/types';
import { collectionReadingOf } from '../composables/documentReading';

function visit(visitorId: string, documents: Array<[string, number, number, boolean]>): ShareVisit {
  return {
    id: `${visitorId}-${documents.length}`,
    at: '2026-01-01T00:00:00Z',
    visitorId,
    ipPrefix: '203.0.113.0/24',
    referer: null,
    userAgent: null,
    browser: null,
    os: null,
    device: 'desktop',
    loginEmail: null,
    automated: false,
    durationMs: null,
    scrollDepth: null,
    completed: false,
    documents: documents.map(([fileId, durationMs, scrollDepth, completed]) => ({
      fileId,
      fileName: `${fileId}.md`,
      at: '2026-01-01T00:00:00Z',
      durationMs,
      scrollDepth,
      completed,
    })),
  };
}

describe(collectionReadingOf.name, () => {
  it('sums up each document from the reads the visit log lists, so the two agree', () => {
    const sut = collectionReadingOf([
      visit('ada', [
        ['guide', 4000, 1, true],
        ['index', 1000, 1, true],
      ]),
      visit('ada', [['guide', 8000, 0.5, false]]),
      visit('grace', [['guide', 6000, 1, true]]),
    ]);
    expect(sut.documents).toEqual([
      { fileId: 'guide', fileName: 'guide.md', readers: 2, opens: 3, medianDurationMs: 6000, completionRate: 2 / 3 },
      { fileId: 'index', fileName: 'index.md', readers: 1, opens: 1, medianDurationMs: 1000, completionRate: 1 },
    ]);
    expect(sut.medianDurationMs).toBe(5000);
    expect(sut.completionRate).toBe(3 / 4);
    expect(sut.depthHistogram).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 3]);
  });

  it('has no figures without reads', () => {
    const sut = collectionReadingOf([visit('ada', [])]);
    expect(sut).toMatchObject({ documents: [], medianDurationMs: null, completionRate: null, visits: 1 });
  });
});
