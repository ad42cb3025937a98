import { beforeEach, describe, expect, it } from 'vitest';
import VisitTable from '../pages/shares/analytics/VisitTable.vue';
import { harness, mockApi, mountWith, settle, type Harness } from './helpers';

function visit(id: string, documents?: unknown[]) {
  return {
    id,
    at: '2026-03-01T10:00:00Z',
    visitorId: 'visitor-0001',
    ipPrefix: '198.51.100.0/24',
    referer: null,
    userAgent: 'Mozilla/5.0',
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    loginEmail: null,
    automated: false,
    durationMs: 90_000,
    scrollDepth: 1,
    completed: true,
    ...(documents ? { documents } : {}),
  };
}

describe('VisitTable: document reads of a collection', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('shows under each visit the documents it opened, with reading time, depth and completion', async () => {
    mockApi({
      'GET /api/console/shares/s1/visit-log': {
        status: 200,
        body: {
          visits: [
            visit('v1', [
              {
                fileId: 'f1',
                fileName: 'minutes.md',
                at: '2026-03-01T10:01:00Z',
                durationMs: 61_000,
                scrollDepth: 1,
                completed: true,
              },
              {
                fileId: 'f2',
                fileName: 'budget.html',
                at: '2026-03-01T10:03:00Z',
                durationMs: 4_000,
                scrollDepth: 0.25,
                completed: false,
              },
            ]),
            visit('v2', []),
            visit('v3'),
          ],
          nextCursor: null,
        },
      },
    });
    const wrapper = mountWith(VisitTable, setup, { props: { shareId: 's1' } });
    await settle();
    const lists = wrapper.findAll('[data-test="visit-documents"]');
    // Only the visit that opened documents has the list; a single file's visits ([] or absent) have none.
    expect(lists).toHaveLength(1);
    expect(lists[0]!.text()).toContain('Documents opened (2)');
    const items = lists[0]!.findAll('li');
    expect(items.map((item) => item.attributes('data-file-id'))).toEqual(['f1', 'f2']);
    expect(items[0]!.text()).toBe('minutes.md61 s · 100% readread to the end');
    expect(items[1]!.text()).toBe('budget.html4 s · 25% read');
  });
});
