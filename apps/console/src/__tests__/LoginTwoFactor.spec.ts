import { describe, expect, it, vi } from 'vitest';
import LoginPage from '../pages/auth/LoginPage.vue';
import { envelope, harness, mockApi, mountWith, settle, user } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

describe('LoginPage with two-factor authentication', () => {
  it('asks for the code after the password, refuses a wrong one, and signs in with a recovery code', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'POST /api/auth/login': (call) => {
        const code = (call.body as { code?: string }).code;
        if (code === 'k3m9q-x7t2a') return { status: 200, body: { user } };
        return {
          status: 401,
          body: { error: code ? '验证码错误' : '请输入两步验证码', code: 'UNAUTHENTICATED', twoFactorRequired: true },
        };
      },
    });
    const setup = harness();
    await setup.router.push('/login?redirect=/webhooks');
    const wrapper = mountWith(LoginPage, setup, { attachTo: document.body });
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('#login-password').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    await settle();

    const input = wrapper.find('#login-code');
    expect(input.exists()).toBe(true);
    expect(input.attributes('autocomplete')).toBe('one-time-code');
    expect(document.activeElement?.id).toBe('login-code');
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);

    await input.setValue('000000');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#login-code-hint').text()).toBe('The code is not right, or it was used already.');

    await wrapper.find('#login-code').setValue('k3m9q-x7t2a');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('webhook-list'), { timeout: 10_000 });
    const logins = calls.filter((c) => c.path === '/api/auth/login').map((c) => c.body);
    expect(logins).toEqual([
      { email: 'alice@example.com', password: 'correct horse battery' },
      { email: 'alice@example.com', password: 'correct horse battery', code: '000000' },
      { email: 'alice@example.com', password: 'correct horse battery', code: 'k3m9q-x7t2a' },
    ]);
    wrapper.unmount();
  });

  it('goes back to the password form for another account', async () => {
    mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'POST /api/auth/login': {
        status: 401,
        body: { error: '请输入两步验证码', code: 'UNAUTHENTICATED', twoFactorRequired: true },
      },
    });
    const setup = harness('zh');
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('#login-password').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.text()).toContain('请输入身份验证器应用中的验证码，或一个恢复码。');
    await wrapper.find('[data-test="login-code-form"] .btn-ghost').trigger('click');
    expect(wrapper.find('#login-password').exists()).toBe(true);
    expect((wrapper.find('#login-password').element as HTMLInputElement).value).toBe('');
  });
});
