import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import NotificationBell from '../components/shell/NotificationBell.vue';
import { harness, mockApi, mountWith, settle, type Harness } from './helpers';

const firstVisit = {
  id: 'n2',
  kind: 'first_visit',
  shareId: 's1',
  fileName: 'plan.md',
  createdAt: new Date().toISOString(),
  readAt: null,
  data: { visitCount: 1, ipPrefix: '203.0.113.0/24', referer: 'https://chat.example/', browser: 'Chrome', device: 'desktop' },
};
const digest = {
  id: 'n1',
  kind: 'daily_digest',
  shareId: null,
  fileName: null,
  createdAt: new Date().toISOString(),
  readAt: '2026-11-26T08:00:00.000Z',
  data: {
    day: '2026-11-25',
    visits: 4,
    automatedVisits: 1,
    shares: [{ shareId: 's2', fileName: 'notes.md', visits: 4, automatedVisits: 1 }],
  },
};

describe('NotificationBell', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => vi.useRealTimers());

  it('shows the unread count, polls it, lists notifications with links to their shares, and marks all read', async () => {
    let unread = 1;
    const { calls: all } = mockApi({
      'GET /api/notifications': () => ({
        status: 200,
        body: { notifications: [firstVisit, digest], unreadCount: unread, nextCursor: null },
      }),
      'POST /api/notifications/read': () => {
        unread = 0;
        return { status: 200, body: { unreadCount: 0 } };
      },
    });
    const calls = {
      get all() {
        return all.filter((call) => call.path.startsWith('/api/notifications'));
      },
    };
    const wrapper = mountWith(NotificationBell, setup, { attachTo: document.body });
    await settle();
    const bell = wrapper.find('[data-test="notification-bell"]');
    expect(wrapper.find('[data-test="notification-count"]').text()).toBe('1');
    expect(bell.attributes('aria-label')).toBe('Notifications: 1 unread');
    // The closed bell asks for the count only.
    expect(calls.all.map((call) => call.search)).toEqual(['?limit=1']);

    unread = 3;
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(calls.all).toHaveLength(2);
    expect(wrapper.find('[data-test="notification-count"]').text()).toBe('3');

    await bell.trigger('click');
    await settle();
    expect(calls.all.at(-1)?.search).toBe('?limit=20');
    const items = wrapper.findAll('[data-test="notification-item"]');
    expect(items.map((item) => item.find('.item-title').text())).toEqual([
      'First visit to plan.md',
      'Daily digest for 2026-11-25: 4 visits',
    ]);
    expect(items[0]!.text()).toContain('Network 203.0.113.0/24');
    expect(items[0]!.find('a').attributes('href')).toBe('/shares/s1');
    expect(items[1]!.find('a').attributes('href')).toBe('/shares');
    expect(items[1]!.text()).toContain('notes.md: 4');
    expect(wrapper.findAll('.unread')).toHaveLength(1);

    await wrapper.find('[data-test="notification-read-all"]').trigger('click');
    await settle();
    expect(calls.all.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/notifications/read', search: '', body: {} },
    ]);
    expect(wrapper.find('[data-test="notification-count"]').exists()).toBe(false);
    expect(wrapper.findAll('.unread')).toHaveLength(0);
    expect(bell.attributes('aria-label')).toBe('Notifications');
    wrapper.unmount();
  });

  it('says so when there is nothing yet', async () => {
    mockApi({ 'GET /api/notifications': { status: 200, body: { notifications: [], unreadCount: 0, nextCursor: null } } });
    const wrapper = mountWith(NotificationBell, setup, { attachTo: document.body });
    await settle();
    expect(wrapper.find('[data-test="notification-count"]').exists()).toBe(false);
    await wrapper.find('[data-test="notification-bell"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-test="notification-panel"]').text()).toContain('No notifications yet');
    wrapper.unmount();
  });
});
