import { beforeEach, describe, expect, it } from 'vitest';
import AppSidebar from '../components/shell/AppSidebar.vue';
import AdminUserDetail from '../pages/admin/AdminUserDetail.vue';
import AdminUsers from '../pages/admin/AdminUsers.vue';
import InvitesPanel from '../pages/admin/InvitesPanel.vue';
import RegistrationPanel from '../pages/admin/RegistrationPanel.vue';
import LoginPage from '../pages/auth/LoginPage.vue';
import RegisterPage from '../pages/auth/RegisterPage.vue';
import SingleSignOn from '../pages/auth/SingleSignOn.vue';
import { useConfirmStore } from '../stores/confirm';
import { useSessionStore } from '../stores/session';
import { useToastsStore } from '../stores/toasts';
import { envelope, harness, mockApi, mountWith, settle, user, type Harness } from './helpers';
import type { Schemas } from '@sharedown/contract';

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
const bob: Schemas['AdminUserDto'] = {
  id: 'bob-1',
  email: 'bob@example.com',
  segment: 'bob',
  isAdmin: false,
  disabled: false,
  disabledAt: null,
  quotaBytes: 100 * MIB,
  usedBytes: 30 * MIB,
  fileCount: 3,
  shareCount: 2,
  createdAt: '2026-01-01T00:00:00Z',
  lastSignInAt: '2026-01-02T00:00:00Z',
};

describe('Admin area routes', () => {
  it('lets an administrator in and sends anyone else back to their files', async () => {
    mockApi({ 'GET /api/auth/session': { status: 200, body: { user: { ...admin } } } });
    const forAdmin = harness();
    await forAdmin.router.push('/admin/users');
    expect(forAdmin.router.currentRoute.value.name).toBe('admin-users');

    mockApi({ 'GET /api/auth/session': { status: 200, body: { user: { ...admin, isAdmin: false } } } });
    const forUser = harness();
    await forUser.router.push('/admin/users/bob-1');
    expect(forUser.router.currentRoute.value.name).toBe('file-list');
  });

  it('shows the Admin link in the sidebar to administrators only', async () => {
    let current = { ...admin, isAdmin: false };
    mockApi({ 'GET /api/auth/session': () => ({ status: 200, body: { user: current } }) });
    const setup = harness();
    useSessionStore().user = current;
    const sidebar = mountWith(AppSidebar, setup, { props: { open: false } });
    await settle();
    expect(sidebar.find('[data-test="nav-admin"]').exists()).toBe(false);
    current = { ...admin };
    useSessionStore().user = current;
    await settle();
    expect(sidebar.find('[data-test="nav-admin"]').text()).toBe('Admin');
  });
});

describe('AdminUserDetail', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    useSessionStore().user = { ...admin };
  });

  it('saves a quota in MiB as bytes, refusing what is no whole number in range before sending anything', async () => {
    const { calls } = mockApi({
      'GET /api/admin/users/bob-1': { status: 200, body: bob },
      'PATCH /api/admin/users/bob-1': (call) => ({ status: 200, body: { ...bob, ...(call.body as object) } }),
    });
    const wrapper = mountWith(AdminUserDetail, setup, { props: { id: 'bob-1' } });
    await settle();
    expect(wrapper.find('[data-test="admin-user-email"]').text()).toBe('bob@example.com');
    const input = wrapper.find('#admin-quota');
    expect((input.element as HTMLInputElement).value).toBe('100');

    for (const bad of ['-1', '1.5', '2000000']) {
      await input.setValue(bad);
      await wrapper.find('[data-test="quota-form"]').trigger('submit');
      await settle();
      expect(wrapper.find('#admin-quota-hint').classes()).toContain('field-error');
    }
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);

    await input.setValue('20');
    await wrapper.find('[data-test="quota-form"]').trigger('submit');
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ quotaBytes: 20 * MIB }]);
    expect(useToastsStore().toasts.map((toast) => toast.text)).toContain('Quota saved.');
  });

  it('disables only after the confirmation, enables at once, and deletes only once the address is typed and confirmed', async () => {
    let current = { ...bob };
    const { calls } = mockApi({
      'GET /api/admin/users/bob-1': () => ({ status: 200, body: current }),
      'PATCH /api/admin/users/bob-1': (call) => {
        current = {
          ...current,
          ...(call.body as object),
          disabledAt: (call.body as { disabled: boolean }).disabled ? '2026-02-01T00:00:00Z' : null,
        };
        return { status: 200, body: current };
      },
      'DELETE /api/admin/users/bob-1': { status: 204 },
      'GET /api/admin/users': { status: 200, body: { users: [], nextCursor: null } },
    });
    const wrapper = mountWith(AdminUserDetail, setup, { props: { id: 'bob-1' } });
    await settle();

    await wrapper.find('[data-test="admin-user-disable"]').trigger('click');
    const confirm = useConfirmStore();
    expect(confirm.request?.title).toBe('Disable bob@example.com?');
    confirm.answer(false);
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);

    await wrapper.find('[data-test="admin-user-disable"]').trigger('click');
    confirm.answer(true);
    await settle();
    expect(wrapper.find('[data-test="admin-user-status"]').text()).toBe('Disabled');
    await wrapper.find('[data-test="admin-user-enable"]').trigger('click');
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { disabled: true },
      { disabled: false },
    ]);

    const remove = wrapper.find('[data-test="admin-user-delete"]');
    expect(remove.attributes('disabled')).toBeDefined();
    await wrapper.find('#admin-delete-confirm').setValue('BOB@example.com');
    expect(wrapper.find('[data-test="admin-user-delete"]').attributes('disabled')).toBeUndefined();
    await wrapper.find('[data-test="delete-form"]').trigger('submit');
    expect(confirm.request?.title).toBe('Delete bob@example.com for good?');
    confirm.answer(true);
    await settle();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/admin/users/bob-1')).toBe(true);
    expect(setup.router.currentRoute.value.name).toBe('admin-users');
  });

  it('offers neither disabling nor deletion on the administrator’s own account, and shows a refusal in words', async () => {
    mockApi({
      'GET /api/admin/users/admin-1': { status: 200, body: { ...bob, id: 'admin-1', email: 'root@example.com', isAdmin: true } },
    });
    const wrapper = mountWith(AdminUserDetail, setup, { props: { id: 'admin-1' } });
    await settle();
    expect(wrapper.find('[data-test="admin-user-self"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="admin-user-disable"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="admin-user-delete"]').exists()).toBe(false);
  });
});

describe('AdminUsers', () => {
  it('searches on the server and asks for the next page by cursor', async () => {
    const setup = harness('de');
    useSessionStore().user = { ...admin };
    const { calls } = mockApi({
      'GET /api/admin/users': (call) => {
        const query = new URLSearchParams(call.search);
        if (query.get('cursor'))
          return { status: 200, body: { users: [{ ...bob, id: 'old', email: 'old@example.com' }], nextCursor: null } };
        return { status: 200, body: { users: [{ ...bob, disabled: true }], nextCursor: 'c1' } };
      },
    });
    const wrapper = mountWith(AdminUsers, setup);
    await settle();
    expect(wrapper.find('tbody tr').text()).toContain('Gesperrt');
    await wrapper.find('[data-test="admin-users-more"]').trigger('click');
    await settle();
    expect(wrapper.findAll('tbody tr')).toHaveLength(2);
    await wrapper.find('input[type="search"]').setValue('bob');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settle();
    const asked = calls
      .filter((call) => call.path === '/api/admin/users')
      .map((call) => Object.fromEntries(new URLSearchParams(call.search)));
    expect(asked).toEqual([{ limit: '50' }, { limit: '50', cursor: 'c1' }, { limit: '50', q: 'bob' }]);
  });
});

describe('InvitesPanel', () => {
  it('shows a new invitation link once, lists the invitations and revokes one after confirming', async () => {
    const setup = harness();
    let invites: Schemas['InviteDto'][] = [
      {
        id: 'i1',
        email: null,
        createdAt: '2026-01-01T00:00:00Z',
        expiresAt: '2026-01-08T00:00:00Z',
        usedAt: null,
        usedBy: null,
        createdBy: 'admin-1',
        status: 'pending',
      },
    ];
    const { calls } = mockApi({
      'GET /api/admin/invites': () => ({ status: 200, body: { invites } }),
      'POST /api/admin/invites': (call) => {
        invites = [{ ...invites[0]!, id: 'i2', email: (call.body as { email?: string }).email ?? null }, ...invites];
        return {
          status: 201,
          body: {
            id: 'i2',
            url: 'https://share.example/register?invite=SECRET',
            expiresAt: '2026-01-31T00:00:00Z',
            email: 'guest@example.com',
          },
        };
      },
      'DELETE /api/admin/invites/i1': () => ((invites = invites.filter((row) => row.id !== 'i1')), { status: 204 }),
    });
    const wrapper = mountWith(InvitesPanel, setup, { props: { inviteMode: false } });
    await settle();
    expect(wrapper.find('[data-test="invite-mode-off"]').exists()).toBe(true);
    expect(wrapper.findAll('tbody tr')).toHaveLength(1);

    await wrapper.find('#invite-email').setValue('not an address');
    await wrapper.find('#invite-days').setValue('91');
    await wrapper.find('[data-test="invite-form"]').trigger('submit');
    await settle();
    expect(wrapper.find('#invite-email-error').text()).toBe('Enter a valid e-mail address, or leave it empty.');
    expect(wrapper.find('#invite-days-hint').classes()).toContain('field-error');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await wrapper.find('#invite-email').setValue('guest@example.com');
    await wrapper.find('#invite-days').setValue('30');
    await wrapper.find('[data-test="invite-form"]').trigger('submit');
    await settle();
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ email: 'guest@example.com', expiresInDays: 30 });
    expect(wrapper.find('[data-test="secret-value"]').text()).toBe('https://share.example/register?invite=SECRET');
    expect(wrapper.findAll('tbody tr')).toHaveLength(2);
    await wrapper.find('[data-test="secret-reveal"] button[aria-label="Dismiss"]').trigger('click');
    expect(wrapper.find('[data-test="secret-reveal"]').exists()).toBe(false);

    await wrapper.find('[data-invite-id="i1"] [data-test="invite-revoke"]').trigger('click');
    useConfirmStore().answer(true);
    await settle();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/admin/invites/i1')).toBe(true);
    expect(wrapper.find('[data-invite-id="i1"]').exists()).toBe(false);
  });
});

describe('RegistrationPanel', () => {
  it('shows the mode in force and changes it at once', async () => {
    const setup = harness('fr');
    const { calls } = mockApi({
      'GET /api/admin/settings': { status: 200, body: { registration: 'open', chosen: false } },
      'PATCH /api/admin/settings': (call) => ({ status: 200, body: { ...(call.body as object), chosen: true } }),
    });
    const wrapper = mountWith(RegistrationPanel, setup);
    await settle();
    expect((wrapper.find('[data-test="mode-open"]').element as HTMLInputElement).checked).toBe(true);
    expect(wrapper.find('[data-test="registration-defaulted"]').text()).toContain('ALLOW_REGISTRATION');
    await wrapper.find('[data-test="mode-invite"]').trigger('change');
    await settle();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ registration: 'invite' });
    expect(wrapper.find('[data-test="registration-defaulted"]').exists()).toBe(false);
    expect(wrapper.emitted('mode')!.at(-1)).toEqual(['invite']);
  });
});

describe('RegisterPage with invitations', () => {
  const options = (registrationMode: string) => ({
    status: 200,
    body: {
      passwordLogin: true,
      registration: registrationMode === 'open',
      registrationMode,
      emailCodes: false,
      oidcLabel: null,
      oidcRedirectUri: '',
    },
  });

  it('says an invite-only instance needs an invitation, and sends the one from the link', async () => {
    mockApi({ 'GET /api/auth/options': options('invite'), 'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录') });
    const bare = harness();
    await bare.router.push('/register');
    const refused = mountWith(RegisterPage, bare);
    await settle();
    expect(refused.find('[data-test="register-refused"]').text()).toContain('invitation-only');
    expect(refused.find('[data-test="register-form"]').exists()).toBe(false);

    const { calls } = mockApi({
      'GET /api/auth/options': options('invite'),
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'POST /api/auth/register': envelope(409, 'CONFLICT', '该邀请链接已被使用'),
    });
    const invited = harness('ja');
    await invited.router.push('/register?invite=TOKEN123');
    const wrapper = mountWith(RegisterPage, invited);
    await settle();
    expect(wrapper.find('[data-test="register-invited"]').exists()).toBe(true);
    await wrapper.find('#register-email').setValue('guest@example.com');
    await wrapper.find('#register-password').setValue('correct horse battery');
    await wrapper.find('#register-confirm').setValue('correct horse battery');
    await wrapper.find('[data-test="register-form"]').trigger('submit');
    await settle();
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      email: 'guest@example.com',
      password: 'correct horse battery',
      invite: 'TOKEN123',
    });
  });

  it('says a closed instance takes no new accounts', async () => {
    mockApi({ 'GET /api/auth/options': options('closed'), 'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录') });
    const setup = harness('es');
    await setup.router.push('/register?invite=TOKEN123');
    const wrapper = mountWith(RegisterPage, setup);
    await settle();
    expect(wrapper.find('[data-test="register-refused"]').text()).toBe('Este servicio no acepta cuentas nuevas.');
  });
});

describe('sign-in of a disabled account', () => {
  it('says the account is disabled after a right password, in the page’s language', async () => {
    mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'GET /api/auth/options': {
        status: 200,
        body: {
          passwordLogin: true,
          registration: true,
          registrationMode: 'open',
          emailCodes: false,
          oidcLabel: null,
          oidcRedirectUri: '',
        },
      },
      'POST /api/auth/login': envelope(403, 'FORBIDDEN', '账户已停用，请联系本服务的管理员'),
    });
    const setup = harness('de');
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    await wrapper.find('input[type="email"]').setValue('bob@example.com');
    await wrapper.find('input[type="password"]').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[data-test="login-disabled"]').text()).toBe(
      'Dieses Konto wurde von der Administration dieses Dienstes gesperrt.',
    );
  });

  it('asks an account whose address was never proven for an e-mail code, not calling it disabled', async () => {
    mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'GET /api/auth/options': {
        status: 200,
        body: {
          passwordLogin: true,
          registration: true,
          registrationMode: 'open',
          emailCodes: true,
          oidcLabel: null,
          oidcRedirectUri: '',
        },
      },
      'POST /api/auth/login': {
        status: 403,
        body: { error: '电子邮件地址尚未验证', code: 'FORBIDDEN', emailUnverified: true },
      },
    });
    const setup = harness('en');
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    await wrapper.find('input[type="email"]').setValue('new@example.com');
    await wrapper.find('input[type="password"]').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[data-test="login-disabled"]').exists()).toBe(false);
    const notice = wrapper.find('[data-test="login-unverified"]');
    expect(notice.text()).toContain("This account's e-mail address is not verified yet.");
    await notice.find('button').trigger('click');
    await settle();
    expect(wrapper.find('[data-test="login-form"]').exists()).toBe(false);
  });

  it('explains a single sign-on that ended at a disabled account', async () => {
    mockApi({ 'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录') });
    const setup = harness('fr');
    await setup.router.push('/login?error=account-disabled&redirect=%2Ffiles');
    const wrapper = mountWith(SingleSignOn, setup);
    expect(wrapper.find('[data-test="sso-error"]').text()).toBe('Ce compte a été désactivé par un administrateur de ce service.');
  });
});
