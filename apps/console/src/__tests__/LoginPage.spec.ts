import { describe, expect, it, vi } from 'vitest';
import LoginPage from '../pages/auth/LoginPage.vue';
import { leaveTo } from '../router/leave';
import { useSessionStore } from '../stores/session';
import { envelope, harness, mockApi, mountWith, settle, user } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

describe('LoginPage', () => {
  it('after an expired session, signs in and returns to the page the user was on', async () => {
    let signedIn = false;
    mockApi({
      'GET /api/auth/session': () => (signedIn ? { status: 200, body: { user } } : envelope(401, 'UNAUTHENTICATED', '未登录')),
      'POST /api/auth/login': () => ((signedIn = true), { status: 200, body: { user } }),
    });
    const setup = harness();
    await setup.router.push('/webhooks');
    expect(setup.router.currentRoute.value.fullPath).toBe('/login?redirect=/webhooks');
    useSessionStore().expired = true;
    const wrapper = mountWith(LoginPage, setup);
    expect(wrapper.text()).toContain('Your session has ended.');
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('#login-password').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    // The target page is loaded lazily, so the navigation finishes a little later.
    await vi.waitFor(() => expect(setup.router.currentRoute.value.name).toBe('webhook-list'), { timeout: 10_000 });
  });

  it('checks the e-mail before sending and shows a wrong password in Chinese', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'POST /api/auth/login': envelope(401, 'UNAUTHENTICATED', '邮箱或密码错误'),
    });
    const setup = harness('zh');
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await wrapper.find('#login-email').setValue('not-an-email');
    await wrapper.find('#login-password').setValue('x');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.find('#login-email-error').text()).toBe('请输入有效的电子邮件地址。');
    expect(calls.some((c) => c.path === '/api/auth/login')).toBe(false);
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[role="alert"]').text()).toBe('邮箱或密码错误');
  });

  it('returns to a share link that asked for sign-in with a full page load', async () => {
    mockApi({
      'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录'),
      'POST /api/auth/login': { status: 200, body: { user } },
    });
    const setup = harness();
    await setup.router.push('/login?redirect=%2Fs%2Fbob%2Fq3-report&next=%2Fs%2Fbob%2Fq3-report');
    const wrapper = mountWith(LoginPage, setup);
    await wrapper.find('#login-email').setValue('alice@example.com');
    await wrapper.find('#login-password').setValue('correct horse battery');
    await wrapper.find('form').trigger('submit');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalledWith('/s/bob/q3-report'));
    expect(setup.router.currentRoute.value.name).toBe('login');
  });
});
