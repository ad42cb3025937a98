import { beforeEach, describe, expect, it, vi, afterEach } from 'vitest';
import TokenList from '../pages/tokens/TokenList.vue';
import WebhookList from '../pages/webhooks/WebhookList.vue';
import { harness, mockApi, mountWith, settle, type Harness, type RecordedCall } from './helpers';

const tokenOf = (n: number) => ({
  id: `t${n}`,
  name: `robot-${n}`,
  prefix: `p${String(n).padStart(11, '0')}`,
  rateLimitPerMinute: 60,
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: null,
  revokedAt: null,
  scopes: ['read', 'write'],
  expiresAt: null,
});

const queries = (calls: RecordedCall[], path: string) =>
  calls
    .filter((call) => call.path === path && call.method === 'GET')
    .map((call) => Object.fromEntries(new URLSearchParams(call.search)));

describe('TokenList and WebhookList read pages from the server', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));
  afterEach(() => vi.useRealTimers());

  it('shows one page of tokens, follows the cursor and searches on the server', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { calls } = mockApi({
      'GET /api/tokens': (call) => {
        const query = new URLSearchParams(call.search);
        if (query.get('q')) return { status: 200, body: { tokens: [tokenOf(7)], nextCursor: null, total: 1 } };
        const second = query.get('cursor') === 'c1';
        const tokens = Array.from({ length: second ? 5 : 20 }, (_, i) => tokenOf(i + 1 + (second ? 20 : 0)));
        return { status: 200, body: { tokens, nextCursor: second ? null : 'c1', total: 25 } };
      },
    });
    const wrapper = mountWith(TokenList, setup);
    await vi.runAllTimersAsync();
    expect(wrapper.findAll('[data-token-id]')).toHaveLength(20);
    expect(wrapper.text()).toContain('1–20 of 25');
    await wrapper.find('button[aria-label="Next page"]').trigger('click');
    await vi.runAllTimersAsync();
    expect(wrapper.findAll('[data-token-id]')).toHaveLength(5);
    await wrapper.find('input[type="search"]').setValue('robot-7');
    await vi.runAllTimersAsync();
    expect(wrapper.findAll('[data-token-id]').map((row) => row.attributes('data-token-id'))).toEqual(['t7']);
    expect(queries(calls, '/api/tokens')).toEqual([
      { limit: '20' },
      { limit: '20', cursor: 'c1' },
      { limit: '20', q: 'robot-7' },
    ]);
  });

  it('counts active webhooks over every page, as the server answers', async () => {
    const hook = {
      id: 'w1',
      url: 'https://hooks.example.com/1',
      events: ['share_visited'],
      active: false,
      createdAt: '2026-01-01T00:00:00Z',
    };
    const { calls } = mockApi({
      'GET /api/webhooks': { status: 200, body: { webhooks: [hook], nextCursor: null, total: 1, activeCount: 10 } },
    });
    const wrapper = mountWith(WebhookList, setup);
    await settle();
    expect(wrapper.findAll('[data-webhook-id]')).toHaveLength(1);
    expect(wrapper.text()).toContain('You already have 10 active webhooks, the maximum.');
    expect(queries(calls, '/api/webhooks')).toEqual([{ limit: '20' }]);
  });
});
