import { beforeEach, describe, expect, it } from 'vitest';
import type { Schemas } from '@sharedown/contract';
import AdminAudit from '../pages/admin/AdminAudit.vue';
import AdminNav from '../pages/admin/AdminNav.vue';
import AdminWorkspaces from '../pages/admin/AdminWorkspaces.vue';
import { useSessionStore } from '../stores/session';
import { useToastsStore } from '../stores/toasts';
import { harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

const MIB = 1024 * 1024;
const admin = {
  ...user,
  id: 'admin-1',
  email: 'root@example.com',
  emailVerified: true,
  hasPassword: true,
  twoFactorEnabled: false,
  isAdmin: true,
};
const sales: Schemas['AdminWorkspaceDto'] = {
  id: 'w1',
  name: 'Sales EMEA',
  segment: 'sales-emea',
  owners: [
    { userId: 'u1', email: 'alice@example.com' },
    { userId: 'u2', email: 'bob@example.com' },
  ],
  memberCount: 3,
  quotaBytes: 100 * MIB,
  usedBytes: 25 * MIB,
  fileCount: 4,
  shareCount: 2,
  createdAt: '2026-01-01T00:00:00Z',
};
const legal: Schemas['AdminWorkspaceDto'] = {
  ...sales,
  id: 'w2',
  name: 'Legal',
  segment: 'legal',
  owners: [{ userId: 'u3', email: 'carol@example.com' }],
  memberCount: 1,
  // Above its quota, after the quota was lowered below what it holds.
  usedBytes: 200 * MIB,
};

describe('Admin → Workspaces', () => {
  let setup: Harness;
  beforeEach(async () => {
    setup = harness();
    useSessionStore(setup.pinia).adopt(admin);
    await setup.router.push('/admin/workspaces');
  });

  it('is a tab of the Admin area', () => {
    mockApi({});
    const nav = mountWith(AdminNav, setup);
    expect(nav.find('[data-test="admin-tab-workspaces"]').attributes('href')).toBe('/admin/workspaces');
  });

  it('lists workspaces with owners, members and storage; searches on the server and appends the next page', async () => {
    const { calls } = mockApi({
      'GET /api/admin/workspaces': (call) => {
        const params = new URLSearchParams(call.search);
        if (params.get('cursor') === 'c1') return { status: 200, body: { workspaces: [legal], nextCursor: null } };
        if (params.get('q')) return { status: 200, body: { workspaces: [], nextCursor: null } };
        return { status: 200, body: { workspaces: [sales], nextCursor: 'c1' } };
      },
    });
    const wrapper = mountWith(AdminWorkspaces, setup);
    await settle();
    const row = wrapper.find('tr[data-workspace-id="w1"]');
    expect(row.find('[data-test="admin-workspace-name"]').text()).toBe('Sales EMEA');
    expect(row.text()).toContain('sales-emea');
    expect(row.findAll('[data-test="admin-workspace-owners"] li').map((li) => li.text())).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
    expect(row.find('[data-test="admin-workspace-members"]').text()).toBe('3 members');
    expect(row.find('[data-test="admin-workspace-usage"]').text()).toBe('25.0 MB / 100 MB');

    await wrapper.find('[data-test="admin-workspaces-more"]').trigger('click');
    await settle();
    expect(wrapper.findAll('tr[data-workspace-id]').map((tr) => tr.attributes('data-workspace-id'))).toEqual(['w1', 'w2']);
    expect(wrapper.find('tr[data-workspace-id="w2"] [data-test="admin-workspace-members"]').text()).toBe('1 member');
    expect(wrapper.find('tr[data-workspace-id="w1"]').text()).not.toContain('over quota');
    expect(wrapper.find('tr[data-workspace-id="w2"]').text()).toContain('200 MB / 100 MB');
    expect(wrapper.find('tr[data-workspace-id="w2"] .badge-danger').text()).toBe('over quota');

    await wrapper.find('input[type="search"]').setValue('nothing');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settle();
    expect(wrapper.find('[data-test="admin-workspaces-empty"]').text()).toBe('No workspaces match.');
    const asked = calls.map((call) => Object.fromEntries(new URLSearchParams(call.search)));
    expect(asked).toEqual([{ limit: '50' }, { limit: '50', cursor: 'c1' }, { limit: '50', q: 'nothing' }]);
  });

  it('sets a quota in MiB from a dialog: a mistake is announced beside the field, a good one is saved', async () => {
    const { calls } = mockApi({
      'GET /api/admin/workspaces': { status: 200, body: { workspaces: [sales, legal], nextCursor: null } },
      'PATCH /api/admin/workspaces/w1': (call) => ({
        status: 200,
        body: { ...sales, quotaBytes: (call.body as { quotaBytes: number }).quotaBytes },
      }),
    });
    const wrapper = mountWith(AdminWorkspaces, setup, { attachTo: document.body });
    await settle();
    const opener = wrapper.find('tr[data-workspace-id="w1"] [data-test="admin-workspace-quota"]');
    expect(opener.attributes('aria-label')).toBe('Set quota for “Sales EMEA”');
    await opener.trigger('click');
    await settle();
    const form = wrapper.find('[data-test="admin-workspace-quota-form"]');
    const input = form.find('#workspace-quota');
    expect((input.element as HTMLInputElement).value).toBe('100');
    expect(document.activeElement).toBe(input.element);

    for (const bad of ['-1', '1.5', '2000000', '']) {
      await input.setValue(bad);
      await form.trigger('submit');
      await settle();
      const error = wrapper.find('[data-test="quota-error"]');
      expect(error.attributes('role')).toBe('alert');
      expect(error.text()).toBe('A whole number of MiB from 0 to 1048576.');
      expect(input.attributes('aria-invalid')).toBe('true');
      expect(input.attributes('aria-describedby')).toBe(error.attributes('id'));
    }
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);

    await input.setValue('2048');
    await form.trigger('submit');
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ quotaBytes: 2048 * MIB }]);
    expect(wrapper.find('[data-test="admin-workspace-quota-form"]').exists()).toBe(false);
    expect(useToastsStore().toasts.map((toast) => toast.text)).toContain('Quota of “Sales EMEA” saved.');
    expect(wrapper.find('tr[data-workspace-id="w1"] [data-test="admin-workspace-usage"]').text()).toBe('25.0 MB / 2.00 GB');
    wrapper.unmount();
  });

  it('keeps the dialog open with the server’s refusal', async () => {
    mockApi({
      'GET /api/admin/workspaces': { status: 200, body: { workspaces: [sales], nextCursor: null } },
      'PATCH /api/admin/workspaces/w1': { status: 404, body: { error: 'Workspace not found', code: 'NOT_FOUND' } },
    });
    const wrapper = mountWith(AdminWorkspaces, setup, { attachTo: document.body });
    await settle();
    await wrapper.find('[data-test="admin-workspace-quota"]').trigger('click');
    await settle();
    await wrapper.find('[data-test="admin-workspace-quota-form"]').trigger('submit');
    await settle();
    expect(wrapper.find('[data-test="admin-workspace-quota-form"] [role="alert"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('names a shared workspace’s trail by the workspace in the audit trail of all accounts', async () => {
    const at = '2026-01-01T00:00:00Z';
    mockApi({
      'GET /api/admin/audit': {
        status: 200,
        body: {
          events: [
            {
              id: 'e2',
              userId: 'w1',
              action: 'workspace.created',
              createdAt: at,
              actorId: 'u1',
              targetId: null,
              details: {},
              ipPrefix: null,
            },
            {
              id: 'e1',
              userId: 'u1',
              action: 'sign_out',
              createdAt: at,
              actorId: null,
              targetId: null,
              details: {},
              ipPrefix: null,
            },
          ],
          nextCursor: null,
        },
      },
      'GET /api/admin/users/u1': { status: 200, body: { id: 'u1', email: 'alice@example.com' } },
      // The api answers a workspace's id with its row, which has no address.
      'GET /api/admin/users/w1': { status: 200, body: { id: 'w1', email: null } },
      'GET /api/admin/workspaces/w1': { status: 200, body: sales },
    });
    const wrapper = mountWith(AdminAudit, setup);
    await settle();
    const accounts = wrapper.findAll('tbody td.account').map((cell) => cell.text());
    expect(accounts).toEqual(['Workspace “Sales EMEA”', 'alice@example.com', 'alice@example.com', '—']);
    wrapper.unmount();
  });
});
