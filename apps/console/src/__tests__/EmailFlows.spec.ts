import { describe, expect, it, vi } from 'vitest';
import AccountPage from '../pages/account/AccountPage.vue';
import LoginPage from '../pages/auth/LoginPage.vue';
import RegisterPage from '../pages/auth/RegisterPage.vue';
import ShareForm from '../pages/shares/ShareForm.vue';
import { useSessionStore } from '../stores/session';
import { envelope, harness, mockApi, mountWith, settle, user, type RecordedCall } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

const signedOut = envelope(401, 'UNAUTHENTICATED', '未登录');
const consoleUser = { ...user, emailVerified: true, hasPassword: false, twoFactorEnabled: false };
const options = (overrides: Record<string, unknown> = {}) => ({
  status: 200,
  body: { passwordLogin: true, registration: true, emailCodes: true, oidcLabel: null, oidcRedirectUri: '', ...overrides },
});
const wrongCode = envelope(401, 'UNAUTHENTICATED', '验证码错误或已失效');
const bodiesTo = (calls: RecordedCall[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

describe('signing in with an e-mail code', () => {
  it('mails a code, refuses a wrong one, asks for the second factor, and signs in', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options(),
      'POST /api/auth/email-code': { status: 200, body: { ok: true } },
      'POST /api/auth/email-code/verify': (call) => {
        const body = call.body as { code: string; twoFactorCode?: string };
        if (body.code !== '123456') return wrongCode;
        if (body.twoFactorCode !== '654321') {
          return { status: 401, body: { error: '请输入两步验证码', code: 'UNAUTHENTICATED', twoFactorRequired: true } };
        }
        return { status: 200, body: { user: consoleUser } };
      },
    });
    const setup = harness();
    await setup.router.push('/login?redirect=/webhooks');
    const wrapper = mountWith(LoginPage, setup, { attachTo: document.body });
    await settle();
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('[data-test="email-code-link"]').trigger('click');
    expect(wrapper.text()).toContain('a first sign-in creates your account');
    expect((wrapper.find('#email-sign-in-email').element as HTMLInputElement).value).toBe('alice@example.com');
    await wrapper.find('[data-test="email-code-form"]').trigger('submit');
    await settle();
    expect(wrapper.find('[role="status"]').text()).toBe(
      'If alice@example.com can receive one, a code is on its way. It works once, within 10 minutes.',
    );
    expect(document.activeElement?.id).toBe('email-sign-in-code');

    await wrapper.find('#email-sign-in-code').setValue('12345');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.find('#email-sign-in-code-hint').text()).toBe('Enter the 6 digits from the e-mail.');
    await wrapper.find('#email-sign-in-code').setValue('000000');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#email-sign-in-code-hint').text()).toBe(
      'The code is not right, has expired, or was used already. Ask for a new one.',
    );

    await wrapper.find('#email-sign-in-code').setValue('123456');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#email-sign-in-second').exists()).toBe(true);
    await wrapper.find('#email-sign-in-second').setValue('654321');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('webhook-list'), { timeout: 10_000 });
    expect(useSessionStore().user?.email).toBe('alice@example.com');
    expect(bodiesTo(calls, '/api/auth/email-code')).toEqual([{ email: 'alice@example.com' }]);
    expect(bodiesTo(calls, '/api/auth/email-code/verify')).toEqual([
      { email: 'alice@example.com', code: '000000' },
      { email: 'alice@example.com', code: '123456' },
      { email: 'alice@example.com', code: '123456', twoFactorCode: '654321' },
    ]);
    wrapper.unmount();
  });

  it('offers neither code nor reset where e-mail is not configured', async () => {
    mockApi({ 'GET /api/auth/session': signedOut, 'GET /api/auth/options': options({ emailCodes: false }) });
    const setup = harness();
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    expect(wrapper.find('[data-test="login-form"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="email-code-link"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="forgot-password-link"]').exists()).toBe(false);
  });

  it('still offers a code, but no reset, where passwords are off', async () => {
    mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options({ passwordLogin: false, registration: false }),
    });
    const setup = harness('zh');
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    expect(wrapper.find('[data-test="email-code-link"]').text()).toBe('用电子邮件验证码登录');
    expect(wrapper.find('[data-test="forgot-password-link"]').exists()).toBe(false);
    await wrapper.find('[data-test="email-code-link"]').trigger('click');
    expect(wrapper.text()).toContain('我们会向你的地址发送一个 6 位验证码，无需密码。');
  });
});

describe('resetting a forgotten password', () => {
  it('mails a code and sets the new password with it, signing in', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options(),
      'POST /api/auth/password-reset': { status: 200, body: { ok: true } },
      'POST /api/auth/password-reset/confirm': (call) =>
        (call.body as { code: string }).code === '424242' ? { status: 200, body: { user: consoleUser } } : wrongCode,
    });
    const setup = harness();
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup, { attachTo: document.body });
    await settle();
    await wrapper.find('[data-test="forgot-password-link"]').trigger('click');
    await wrapper.find('#password-reset-email').setValue('alice@example.com');
    await wrapper.find('form').trigger('submit');
    await settle();
    await wrapper.find('#password-reset-code').setValue('111111');
    await wrapper.find('#password-reset-new').setValue('a new password');
    await wrapper.find('#password-reset-confirm').setValue('a different one');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.find('#password-reset-confirm-error').text()).toBe('The passwords do not match.');
    expect(bodiesTo(calls, '/api/auth/password-reset/confirm')).toEqual([]);

    await wrapper.find('#password-reset-confirm').setValue('a new password');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#password-reset-code-hint').text()).toContain('Ask for a new one.');
    await wrapper.find('#password-reset-code').setValue('424242');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('file-list'), { timeout: 10_000 });
    expect(bodiesTo(calls, '/api/auth/password-reset')).toEqual([{ email: 'alice@example.com' }]);
    expect(bodiesTo(calls, '/api/auth/password-reset/confirm').at(-1)).toEqual({
      email: 'alice@example.com',
      code: '424242',
      newPassword: 'a new password',
    });
    wrapper.unmount();
  });
});

describe('registering with e-mail configured', () => {
  it('asks for the mailed code instead of signing in, and signs in with it', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options(),
      'POST /api/auth/register': { status: 200, body: { verificationRequired: true } },
      'POST /api/auth/verify-email': (call) =>
        (call.body as { code: string }).code === '135790' ? { status: 200, body: { user: consoleUser } } : wrongCode,
    });
    const setup = harness();
    await setup.router.push('/register?redirect=/tokens');
    const wrapper = mountWith(RegisterPage, setup);
    await settle();
    await wrapper.find('#register-email').setValue('new@example.com');
    await wrapper.find('#register-password').setValue('long enough pw');
    await wrapper.find('#register-confirm').setValue('long enough pw');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(setup.router.currentRoute.value.name).toBe('register');
    expect(useSessionStore().user).toBeNull();
    expect(wrapper.find('[data-test="register-verify-form"]').text()).toContain('We sent a code to new@example.com');
    await wrapper.find('#register-verify-code').setValue('135790');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('token-list'), { timeout: 10_000 });
    expect(bodiesTo(calls, '/api/auth/verify-email')).toEqual([{ email: 'new@example.com', code: '135790' }]);
  });

  it('still signs in at once where registration answers with the account', async () => {
    mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options({ emailCodes: false }),
      'POST /api/auth/register': { status: 200, body: { user: consoleUser } },
    });
    const setup = harness();
    await setup.router.push('/register');
    const wrapper = mountWith(RegisterPage, setup);
    await settle();
    await wrapper.find('#register-email').setValue('new@example.com');
    await wrapper.find('#register-password').setValue('long enough pw');
    await wrapper.find('#register-confirm').setValue('long enough pw');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('file-list'), { timeout: 10_000 });
  });
});

describe('the Account page of an unverified address', () => {
  it('sends a code and verifies the address with it', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': { status: 200, body: { user: { ...consoleUser, emailVerified: false, hasPassword: true } } },
      'GET /api/auth/options': options(),
      'POST /api/auth/verify-email/send': { status: 200, body: { ok: true } },
      'POST /api/auth/verify-email': (call) =>
        (call.body as { code: string }).code === '246802'
          ? { status: 200, body: { user: { ...consoleUser, hasPassword: true } } }
          : wrongCode,
      'GET /api/auth/sessions': { status: 200, body: { sessions: [] } },
    });
    const setup = harness('zh');
    await setup.router.push('/account');
    const wrapper = mountWith(AccountPage, setup);
    await settle();
    const banner = wrapper.find('[data-test="verify-email-banner"]');
    expect(banner.text()).toContain('你的电子邮件地址尚未验证');
    await wrapper.find('[data-test="verify-email-send"]').trigger('click');
    await settle();
    expect(wrapper.find('#verify-banner-hint').text()).toBe('验证码已发送到 alice@example.com。');
    await wrapper.find('#verify-banner-code').setValue('000000');
    await wrapper.find('[data-test="verify-email-form"]').trigger('submit');
    await settle();
    expect(wrapper.find('#verify-banner-hint').text()).toBe('验证码错误、已过期或已使用，请重新获取。');
    await wrapper.find('#verify-banner-code').setValue('246802');
    await wrapper.find('[data-test="verify-email-form"]').trigger('submit');
    await settle();
    expect(wrapper.find('[data-test="verify-email-banner"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="email-verified"]').text()).toBe('已验证');
    expect(calls.filter((c) => c.path === '/api/auth/verify-email/send')).toHaveLength(1);
  });

  it('shows no banner where e-mail is not configured', async () => {
    mockApi({
      'GET /api/auth/session': { status: 200, body: { user: { ...consoleUser, emailVerified: false } } },
      'GET /api/auth/options': options({ emailCodes: false }),
      'GET /api/auth/sessions': { status: 200, body: { sessions: [] } },
    });
    const setup = harness();
    await setup.router.push('/account');
    const wrapper = mountWith(AccountPage, setup);
    await settle();
    expect(wrapper.find('[data-test="verify-email-banner"]').exists()).toBe(false);
  });
});

describe('the share form allowlist on an instance that cannot verify addresses', () => {
  async function allowlistForm(overrides: Record<string, unknown>, locale: 'en' | 'zh' = 'en') {
    mockApi({ 'GET /api/auth/options': options(overrides) });
    const setup = harness(locale);
    const wrapper = mountWith(ShareForm, setup, {
      props: { segment: 'alice', versions: [{ id: 'v1', label: 'v1' }], busy: false, error: null },
    });
    await wrapper.find('[data-test="sf-allowlist-toggle"]').setValue(true);
    await settle();
    return wrapper;
  }

  it('warns when neither e-mail nor single sign-on is set up', async () => {
    const wrapper = await allowlistForm({ emailCodes: false, oidcLabel: null });
    expect(wrapper.find('[data-test="allowlist-warning"]').text()).toContain('cannot verify e-mail addresses');
    const chinese = await allowlistForm({ emailCodes: false, oidcLabel: null }, 'zh');
    expect(chinese.find('[data-test="allowlist-warning"]').text()).toContain('本服务无法验证电子邮件地址');
  });

  it('does not warn where addresses can be verified', async () => {
    expect((await allowlistForm({ emailCodes: true, oidcLabel: null })).find('[data-test="allowlist-warning"]').exists()).toBe(
      false,
    );
    expect(
      (await allowlistForm({ emailCodes: false, oidcLabel: 'Corp SSO' })).find('[data-test="allowlist-warning"]').exists(),
    ).toBe(false);
  });
});
