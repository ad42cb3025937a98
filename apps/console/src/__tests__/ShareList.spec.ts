import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ShareList from '../pages/shares/ShareList.vue';
import { harness, mockApi, mountWith, settle, type Harness, type RecordedCall } from './helpers';

function shareOf(n: number, revoked = false) {
  return {
    id: `s${n}`,
    token: `token${n}`,
    ownerSegment: 'alice',
    fileId: `f${n}`,
    fileName: `doc-${n}.md`,
    fileKind: 'MARKDOWN',
    hasPassword: false,
    expiresAt: null,
    maxVisits: null,
    visitCount: n,
    uniqueVisitCount: 1,
    oneTime: false,
    revokedAt: revoked ? '2026-01-01T00:00:00Z' : null,
    consumedAt: null,
    createdAt: '2026-01-01T00:00:00Z',
  };
}

/** 45 shares served 20 at a time: the cursor of page n+1 is `after-<n>`. */
function pagedServer() {
  const all = Array.from({ length: 45 }, (_, i) => shareOf(i + 1, i % 3 === 0));
  return (call: RecordedCall) => {
    const query = new URLSearchParams(call.search);
    const limit = Number(query.get('limit'));
    let rows = all;
    if (query.get('status') === 'revoked') rows = rows.filter((row) => row.revokedAt);
    const q = query.get('q');
    if (q) rows = rows.filter((row) => row.fileName.includes(q));
    const start = query.get('cursor') ? Number(query.get('cursor')!.slice('after-'.length)) : 0;
    const page = rows.slice(start, start + limit);
    const end = start + page.length;
    return { status: 200, body: { shares: page, nextCursor: end < rows.length ? `after-${end}` : null, total: rows.length } };
  };
}

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/console/shares').map((call) => Object.fromEntries(new URLSearchParams(call.search)));

describe('ShareList', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));
  afterEach(() => vi.useRealTimers());

  it('reads one page from the server with its cursor, forward and back, and the totals over every share', async () => {
    const { calls } = mockApi({
      'GET /api/console/shares': pagedServer(),
      'GET /api/console/shares/totals': { status: 200, body: { active: 30, visits: 1035, uniqueVisits: 45 } },
    });
    const wrapper = mountWith(ShareList, setup);
    await settle();
    expect(wrapper.findAll('[data-share-id]')).toHaveLength(20);
    expect(wrapper.find('[data-share-id]').attributes('data-share-id')).toBe('s1');
    expect(wrapper.find('[data-test="total-active"]').text()).toBe('30');
    expect(wrapper.find('[data-test="total-visits"]').text()).toBe('1035');
    expect(wrapper.text()).toContain('1–20 of 45');

    await wrapper.find('button[aria-label="Next page"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-share-id]').attributes('data-share-id')).toBe('s21');
    await wrapper.find('button[aria-label="Next page"]').trigger('click');
    await settle();
    expect(wrapper.findAll('[data-share-id]')).toHaveLength(5);
    expect(wrapper.text()).toContain('41–45 of 45');
    expect(wrapper.find('button[aria-label="Next page"]').attributes('disabled')).toBeDefined();

    await wrapper.find('button[aria-label="Previous page"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-share-id]').attributes('data-share-id')).toBe('s21');
    // Never the whole list: every read names the page size, and each page its own cursor.
    expect(listCalls(calls)).toEqual([
      { limit: '20' },
      { limit: '20', cursor: 'after-20' },
      { limit: '20', cursor: 'after-40' },
      { limit: '20', cursor: 'after-20' },
    ]);
  });

  it('filters by status and text on the server and starts again at the first page', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { calls } = mockApi({
      'GET /api/console/shares': pagedServer(),
      'GET /api/console/shares/totals': { status: 200, body: { active: 30, visits: 1035, uniqueVisits: 45 } },
    });
    const wrapper = mountWith(ShareList, setup);
    await vi.runAllTimersAsync();
    await wrapper.find('button[aria-label="Next page"]').trigger('click');
    await vi.runAllTimersAsync();

    await wrapper.find('#share-status-filter').setValue('revoked');
    await vi.runAllTimersAsync();
    expect(listCalls(calls).at(-1)).toEqual({ limit: '20', status: 'revoked' });
    expect(wrapper.text()).toContain('1–15 of 15');

    await wrapper.find('input[type="search"]').setValue('doc-1');
    await vi.runAllTimersAsync();
    expect(listCalls(calls).at(-1)).toEqual({ limit: '20', status: 'revoked', q: 'doc-1' });
    expect(wrapper.findAll('[data-share-id]').map((row) => row.attributes('data-share-id'))).toEqual([
      's1',
      's10',
      's13',
      's16',
      's19',
    ]);

    await wrapper.find('input[type="search"]').setValue('nothing');
    await vi.runAllTimersAsync();
    expect(wrapper.findAll('[data-share-id]')).toHaveLength(0);
    expect(wrapper.text()).toContain('No items');
  });

  it('shows the empty state for an account without shares', async () => {
    mockApi({
      'GET /api/console/shares': { status: 200, body: { shares: [], nextCursor: null, total: 0 } },
      'GET /api/console/shares/totals': { status: 200, body: { active: 0, visits: 0, uniqueVisits: 0 } },
    });
    const wrapper = mountWith(ShareList, setup);
    await settle();
    expect(wrapper.find('[data-test="share-table"]').exists()).toBe(false);
    expect(wrapper.find('.empty').exists()).toBe(true);
  });
});
