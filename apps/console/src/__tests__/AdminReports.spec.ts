import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminReport } from '../api/types';
import AppSidebar from '../components/shell/AppSidebar.vue';
import ShareStatusBadge from '../components/ShareStatusBadge.vue';
import AdminReports from '../pages/admin/reports/AdminReports.vue';
import ShareReportsPanel from '../pages/shares/ShareReportsPanel.vue';
import { useConfirmStore } from '../stores/confirm';
import { useSessionStore } from '../stores/session';
import { useToastsStore } from '../stores/toasts';
import { envelope, harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

const report = (id: string, overrides: Partial<AdminReport> = {}): AdminReport => ({
  id,
  shareId: 'share-1',
  shareToken: 'tok123',
  fileName: 'phish.md',
  shareState: 'active',
  owner: { id: 'owner-1', email: 'owner@example.com', segment: 'owner', disabled: false },
  reason: 'Asks for bank logins',
  ipPrefix: '203.0.113.0/24',
  createdAt: '2026-01-01T00:00:00Z',
  status: 'open',
  resolvedAt: null,
  resolvedBy: null,
  openReportsOnShare: 2,
  ...overrides,
});

describe('AdminReports', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('opens on the open reports, filters by status and pages by cursor', async () => {
    const { calls } = mockApi({
      'GET /api/admin/reports': (call) => {
        const query = new URLSearchParams(call.search);
        if (query.get('status') === 'resolved') {
          return {
            status: 200,
            body: {
              reports: [
                report('r9', {
                  status: 'dismissed',
                  resolvedAt: '2026-01-02T00:00:00Z',
                  resolvedBy: { id: 'a1', email: 'mod@example.com' },
                }),
              ],
              nextCursor: null,
            },
          };
        }
        return query.get('cursor')
          ? { status: 200, body: { reports: [report('r1')], nextCursor: null } }
          : { status: 200, body: { reports: [report('r2')], nextCursor: 'c1' } };
      },
    });
    const wrapper = mountWith(AdminReports, setup);
    await settle();
    const first = wrapper.find('tbody tr');
    expect(first.attributes('data-status')).toBe('open');
    expect(first.text()).toContain('phish.md');
    expect(first.text()).toContain('owner@example.com');
    expect(first.text()).toContain('203.0.113.0/24');
    expect(first.text()).toContain('open reports on this link: 2');
    expect(wrapper.find('[data-test="reports-filter-open"]').attributes('aria-pressed')).toBe('true');

    await wrapper.find('[data-test="reports-more"]').trigger('click');
    await settle();
    expect(wrapper.findAll('tbody tr').map((row) => row.attributes('data-report'))).toEqual(['r2', 'r1']);

    await wrapper.find('[data-test="reports-filter-resolved"]').trigger('click');
    await settle();
    const resolved = wrapper.find('tbody tr');
    expect(resolved.text()).toContain('Dismissed');
    expect(resolved.text()).toContain('by mod@example.com');
    expect(resolved.find('[data-test="report-dismiss"]').exists()).toBe(false);
    const asked = calls
      .filter((call) => call.path === '/api/admin/reports')
      .map((call) => Object.fromEntries(new URLSearchParams(call.search)));
    expect(asked).toEqual([
      { status: 'open', limit: '50' },
      { status: 'open', limit: '50', cursor: 'c1' },
      { status: 'resolved', limit: '50' },
    ]);
  });

  it('asks before each action, sends it, and reloads the queue', async () => {
    let resolved = false;
    const { calls } = mockApi({
      'GET /api/admin/reports': () => ({ status: 200, body: { reports: resolved ? [] : [report('r1')], nextCursor: null } }),
      'POST /api/admin/reports/r1/resolve': () => (
        (resolved = true),
        { status: 200, body: report('r1', { status: 'share_disabled' }) }
      ),
    });
    const wrapper = mountWith(AdminReports, setup);
    await settle();

    await wrapper.find('[data-test="report-disable-owner"]').trigger('click');
    const confirm = useConfirmStore();
    expect(confirm.request?.title).toBe('Disable the owner’s account?');
    expect(confirm.request?.message).toContain('owner@example.com can no longer sign in');
    confirm.answer(false);
    await settle();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await wrapper.find('[data-test="report-disable-share"]').trigger('click');
    expect(confirm.request?.message).toContain('“phish.md” stops working for good');
    expect(confirm.request?.danger).toBe(true);
    confirm.answer(true);
    await settle();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ action: 'disable_share' }]);
    expect(useToastsStore().toasts.map((toast) => toast.text)).toContain('Link disabled.');
    expect(wrapper.text()).toContain('No reports here.');
  });

  it('says so when another administrator was first (409), in the console language', async () => {
    setup = harness('de');
    mockApi({
      'GET /api/admin/reports': { status: 200, body: { reports: [report('r1')], nextCursor: null } },
      'POST /api/admin/reports/r1/resolve': envelope(409, 'CONFLICT', '该举报已被处理'),
    });
    const wrapper = mountWith(AdminReports, setup);
    await settle();
    expect(wrapper.find('h1').text()).toBe('Missbrauchsmeldungen');
    await wrapper.find('[data-test="report-dismiss"]').trigger('click');
    expect(useConfirmStore().request?.confirmLabel).toBe('Abweisen');
    useConfirmStore().answer(true);
    await settle();
    expect(useToastsStore().toasts).toHaveLength(1);
    expect(useToastsStore().toasts[0]!.kind).toBe('error');
  });

  it('shows the queue’s nav link to administrators only', async () => {
    mockApi({});
    const session = useSessionStore();
    session.user = { ...user, emailVerified: true, hasPassword: true, twoFactorEnabled: false, isAdmin: false };
    const wrapper = mountWith(AppSidebar, setup, { props: { open: false } });
    expect(wrapper.find('[data-test="nav-admin-reports"]').exists()).toBe(false);
    session.user = { ...session.user, isAdmin: true };
    await settle();
    expect(wrapper.find('[data-test="nav-admin-reports"]').text()).toBe('Abuse reports');
  });
});

describe('ShareReportsPanel', () => {
  it('lists the reports on the owner’s share with their masked network and state', async () => {
    const setup = harness('fr');
    mockApi({
      'GET /api/console/shares/s1/reports': {
        status: 200,
        body: {
          reports: [
            {
              id: 'a',
              reason: 'Hameçonnage',
              ipPrefix: '198.51.100.0/24',
              createdAt: '2026-01-01T00:00:00Z',
              status: 'share_disabled',
              resolvedAt: '2026-01-02T00:00:00Z',
            },
          ],
          nextCursor: null,
        },
      },
    });
    const wrapper = mountWith(ShareReportsPanel, setup, { props: { shareId: 's1' } });
    await settle();
    const row = wrapper.find('tbody tr');
    expect(row.text()).toContain('Hameçonnage');
    expect(row.text()).toContain('198.51.100.0/24');
    expect(row.text()).toContain('Lien désactivé');
  });
});

describe('ShareStatusBadge', () => {
  it('names a link disabled after a report, which stays revoked for the status filters', () => {
    const setup = harness('ja');
    const at = '2026-01-02T00:00:00Z';
    const disabled = mountWith(ShareStatusBadge, setup, { props: { share: { revokedAt: at, disabledAt: at } } });
    expect(disabled.text()).toBe('リンク無効化');
    expect(disabled.attributes('data-share-status')).toBe('revoked');
    const revoked = mountWith(ShareStatusBadge, setup, { props: { share: { revokedAt: at, disabledAt: null } } });
    expect(revoked.attributes('data-share-disabled')).toBeUndefined();
    expect(revoked.text()).not.toBe('リンク無効化');
  });
});
