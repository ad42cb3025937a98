import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, call, setTabWorkspace, WORKSPACE_HEADER } from '../api/client';
import WorkspaceSwitcher from '../components/shell/WorkspaceSwitcher.vue';
import InvitationPage from '../pages/workspace/InvitationPage.vue';
import MembersPage from '../pages/workspace/MembersPage.vue';
import { leaveTo } from '../router/leave';
import { useConfirmStore } from '../stores/confirm';
import { useSessionStore } from '../stores/session';
import { envelope, harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

const account = { ...user, emailVerified: true, hasPassword: true, twoFactorEnabled: false };

const personal = {
  id: user.id,
  name: user.email,
  segment: user.segment,
  personal: true,
  role: 'OWNER',
  quotaBytes: 100,
  usedBytes: 1,
  memberCount: 1,
};
const sales = (role: string) => ({
  id: '11111111-2222-4333-8444-555555555555',
  name: 'Sales',
  segment: 'sales',
  personal: false,
  role,
  quotaBytes: 1000,
  usedBytes: 10,
  memberCount: 2,
});
const members = [
  { userId: user.id, email: user.email, role: 'OWNER', joinedAt: new Date().toISOString() },
  { userId: 'u2', email: 'bob@example.com', role: 'EDITOR', joinedAt: new Date().toISOString() },
];

/** The header each recorded request carried, by "METHOD path". */
function headersOf(fetchMock: ReturnType<typeof mockApi>['fetchMock']): Record<string, string | null> {
  const seen: Record<string, string | null> = {};
  for (const [request] of fetchMock.mock.calls as unknown as [Request][]) {
    seen[`${request.method} ${new URL(request.url).pathname}`] = request.headers.get(WORKSPACE_HEADER);
  }
  return seen;
}

describe('the tab’s workspace', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    vi.mocked(leaveTo).mockClear();
    useSessionStore(setup.pinia).adopt(account);
  });
  afterEach(() => sessionStorage.clear());

  it('names a shared workspace on workspace-scoped calls only, and nothing in the personal one', async () => {
    const { fetchMock } = mockApi({
      'GET /api/console/files': { status: 200, body: { files: [], nextCursor: null } },
      'GET /api/tokens': { status: 200, body: { tokens: [] } },
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal] } },
      'GET /api/auth/session': { status: 200, body: { user } },
    });
    await call(api().GET('/api/console/files'));
    expect(headersOf(fetchMock)['GET /api/console/files']).toBeNull();

    setTabWorkspace(sales('EDITOR').id);
    fetchMock.mockClear();
    await call(api().GET('/api/console/files'));
    await call(api().GET('/api/tokens'));
    await call(api().GET('/api/workspaces'));
    await call(api().GET('/api/auth/session'));
    expect(headersOf(fetchMock)).toEqual({
      'GET /api/console/files': sales('EDITOR').id,
      'GET /api/tokens': sales('EDITOR').id,
      'GET /api/workspaces': null,
      'GET /api/auth/session': null,
    });
  });

  it('lists the workspaces personal first, shows the current one, and switches by loading the console again', async () => {
    setTabWorkspace(sales('EDITOR').id);
    mockApi({ 'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales('EDITOR')] } } });
    await setup.router.push('/files/abc');
    const wrapper = mountWith(WorkspaceSwitcher, setup, { attachTo: document.body });
    await settle();
    expect(wrapper.find('[data-test="workspace-name"]').text()).toBe('Sales');
    await wrapper.find('[data-test="workspace-current"]').trigger('click');
    const options = wrapper.findAll('[data-test="workspace-option"]');
    expect(options.map((option) => option.text())).toEqual(['Personal', 'Sales']);
    expect(options.map((option) => option.attributes('aria-current') ?? null)).toEqual([null, 'true']);
    await options[0]!.trigger('click');
    expect(sessionStorage.getItem('sharedown.workspace')).toBeNull();
    // A file of the old workspace is not in the new one: the switch lands on the list.
    expect(leaveTo).toHaveBeenCalledWith('/files');
    wrapper.unmount();
  });

  it('goes back to the personal workspace when the tab names one it is no longer a member of', async () => {
    setTabWorkspace('99999999-2222-4333-8444-555555555555');
    mockApi({ 'GET /api/workspaces': { status: 200, body: { workspaces: [personal] } } });
    const wrapper = mountWith(WorkspaceSwitcher, setup);
    await settle();
    expect(sessionStorage.getItem('sharedown.workspace')).toBeNull();
    expect(leaveTo).toHaveBeenCalledTimes(1);
    wrapper.unmount();
  });
});

describe('MembersPage', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    vi.mocked(leaveTo).mockClear();
    useSessionStore(setup.pinia).adopt(account);
  });
  afterEach(() => sessionStorage.clear());

  function workspaceApi(role: string, extra: Parameters<typeof mockApi>[0] = {}) {
    setTabWorkspace(sales(role).id);
    return mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales(role)] } },
      'GET /api/console/workspace/members': { status: 200, body: { members, nextCursor: null } },
      'GET /api/console/workspace/invitations': { status: 200, body: { invitations: [], nextCursor: null } },
      ...extra,
    });
  }

  it('offers an owner the invite form, role selects, removal, pending invitations, rename and delete', async () => {
    const { calls } = workspaceApi('OWNER', {
      'POST /api/console/workspace/invitations': {
        status: 200,
        body: {
          invitation: { id: 'i1', email: 'carol@example.com', role: 'VIEWER', createdAt: '', expiresAt: '' },
          url: 'http://localhost/invitations/secret123',
        },
      },
      'PATCH /api/console/workspace/members/u2': {
        status: 200,
        body: { member: { ...members[1], role: 'VIEWER' } },
      },
    });
    const wrapper = mountWith(MembersPage, setup);
    await settle();
    expect(wrapper.find('[data-test="member-count"]').text()).toBe('2 members');
    const roleSelects = wrapper.findAll('[data-test="member-role"]');
    // Your own row has no select: you leave rather than demote yourself here.
    expect(roleSelects).toHaveLength(1);
    expect(roleSelects[0]!.findAll('option').map((option) => option.text())).toEqual([
      'Owner',
      'Administrator',
      'Editor',
      'Viewer',
    ]);
    expect(wrapper.find('[data-test="member-leave"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="member-remove"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="workspace-settings"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="pending-empty"]').exists()).toBe(true);

    await roleSelects[0]!.setValue('VIEWER');
    await settle();
    expect(calls.find((item) => item.method === 'PATCH')?.body).toEqual({ role: 'VIEWER' });

    await wrapper.find('#invite-email').setValue('carol@example.com');
    await wrapper.find('[data-test="invite-role"]').setValue('VIEWER');
    await wrapper.find('[data-test="invite-form"]').trigger('submit');
    await settle();
    expect(calls.find((item) => item.method === 'POST')?.body).toEqual({ email: 'carol@example.com', role: 'VIEWER' });
    expect(wrapper.find('[data-test="invite-link"] [data-test="secret-value"]').text()).toBe(
      'http://localhost/invitations/secret123',
    );
  });

  it('shows a viewer the members read-only, with leave', async () => {
    const { calls } = workspaceApi('VIEWER');
    const wrapper = mountWith(MembersPage, setup);
    await settle();
    expect(wrapper.find('[data-test="viewer-note"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="invite-form"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="member-role"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="member-remove"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="workspace-settings"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="member-leave"]').exists()).toBe(true);
    // Pending invitations are the managers' (the api answers 403 to others): not even asked for.
    expect(calls.some((item) => item.path === '/api/console/workspace/invitations')).toBe(false);
  });

  it('shows an editor no member management', async () => {
    workspaceApi('EDITOR');
    const wrapper = mountWith(MembersPage, setup);
    await settle();
    expect(wrapper.find('[data-test="editor-note"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="invite-form"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="member-role"]').exists()).toBe(false);
  });

  it('says why a workspace that holds files cannot be deleted', async () => {
    workspaceApi('OWNER', {
      [`DELETE /api/workspaces/${sales('OWNER').id}`]: envelope(409, 'CONFLICT', '工作区中还有文件'),
    });
    const wrapper = mountWith(MembersPage, setup);
    await settle();
    const confirm = useConfirmStore(setup.pinia);
    await wrapper.find('[data-test="workspace-delete"]').trigger('click');
    confirm.answer(true);
    await settle();
    expect(wrapper.find('[data-test="workspace-delete-error"]').text()).toContain('still holds files');
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('offers, in the personal workspace, to create a shared one', async () => {
    mockApi({ 'GET /api/workspaces': { status: 200, body: { workspaces: [personal] } } });
    const wrapper = mountWith(MembersPage, setup);
    await settle();
    expect(wrapper.find('[data-test="personal-workspace"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="member-table"]').exists()).toBe(false);
  });
});

describe('InvitationPage', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    vi.mocked(leaveTo).mockClear();
    useSessionStore(setup.pinia).adopt({ ...account, email: 'bob@example.com' });
  });

  it('shows the workspace, role and address, and accepting opens the workspace in this tab', async () => {
    const { calls } = mockApi({
      'GET /api/invitations/s3cret': {
        status: 200,
        body: { workspaceName: 'Sales', role: 'EDITOR', email: 'bob@example.com', expiresAt: '2030-01-01T00:00:00.000Z' },
      },
      'POST /api/invitations/s3cret/accept': { status: 200, body: { workspace: sales('EDITOR') } },
    });
    await setup.router.push('/invitations/s3cret');
    const wrapper = mountWith(InvitationPage, setup);
    await settle();
    expect(wrapper.find('h1').text()).toBe('Join “Sales”');
    expect(wrapper.text()).toContain('You are invited as Editor, for the address bob@example.com.');
    await wrapper.find('[data-test="invitation-accept"]').trigger('click');
    await settle();
    expect(calls.some((item) => item.method === 'POST' && item.path === '/api/invitations/s3cret/accept')).toBe(true);
    expect(sessionStorage.getItem('sharedown.workspace')).toBe(sales('EDITOR').id);
    expect(leaveTo).toHaveBeenCalledWith('/files');
  });

  it('says when the invitation is for another address, and when it is gone', async () => {
    mockApi({
      'GET /api/invitations/other': {
        status: 200,
        body: { workspaceName: 'Sales', role: 'VIEWER', email: 'carol@example.com', expiresAt: '2030-01-01T00:00:00.000Z' },
      },
      'GET /api/invitations/used': envelope(404, 'NOT_FOUND', '邀请不存在'),
    });
    await setup.router.push('/invitations/other');
    const other = mountWith(InvitationPage, setup);
    await settle();
    expect(other.find('[data-test="invitation-other-account"]').exists()).toBe(true);
    expect(other.find('[data-test="invitation-accept"]').attributes('disabled')).toBeDefined();
    other.unmount();

    await setup.router.push('/invitations/used');
    const used = mountWith(InvitationPage, setup);
    await settle();
    expect(used.find('[data-test="invitation-gone"]').exists()).toBe(true);
  });
});
