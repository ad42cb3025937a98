import { beforeEach, describe, expect, it } from 'vitest';
import ActivityPage from '../pages/activity/ActivityPage.vue';
import { harness, mockApi, mountWith, settle, type Harness } from './helpers';

const event = (id: string, action: string, details: Record<string, unknown> = {}, actorId: string | null = null) => ({
  id,
  action,
  createdAt: '2026-01-01T00:00:00Z',
  actorId,
  targetId: null,
  details,
  ipPrefix: '203.0.113.0/24',
});

describe('ActivityPage', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('lists the events in words, marks what an administrator did, and asks for older ones by cursor', async () => {
    const { calls } = mockApi({
      'GET /api/audit': {
        status: 200,
        body: {
          events: [event('9', 'token.revoked', { name: 'ci' }), event('8', 'sign_in.failed', { reason: 'password' }, 'admin-id')],
          nextCursor: '8',
        },
      },
    });
    const wrapper = mountWith(ActivityPage, setup);
    await settle();
    const rows = wrapper.findAll('tbody tr');
    expect(rows.map((row) => row.attributes('data-action'))).toEqual(['token.revoked', 'sign_in.failed']);
    expect(rows[0]!.text()).toContain('API token revoked');
    expect(rows[0]!.text()).toContain('name: ci');
    expect(rows[1]!.text()).toContain('Sign-in refused');
    expect(rows[1]!.text()).toContain('by an administrator');
    expect(rows[1]!.text()).toContain('203.0.113.0/24');

    await wrapper.find('[data-test="activity-more"]').trigger('click');
    await settle();
    const audits = calls.filter((call) => call.path === '/api/audit');
    expect(audits.map((call) => new URLSearchParams(call.search).get('cursor'))).toEqual([null, '8']);
  });
});
