import { describe, expect, it } from 'vitest';
import AccountPage from '../pages/account/AccountPage.vue';
import LoginPage from '../pages/auth/LoginPage.vue';
import RegisterPage from '../pages/auth/RegisterPage.vue';
import { useSessionStore } from '../stores/session';
import { envelope, harness, mockApi, mountWith, settle, user } from './helpers';

const signedOut = envelope(401, 'UNAUTHENTICATED', '未登录');
const options = (overrides: Record<string, unknown> = {}) => ({
  status: 200,
  body: {
    passwordLogin: true,
    registration: true,
    emailCodes: false,
    oidcLabel: 'Corp SSO',
    oidcRedirectUri: 'https://share.example/api/auth/oidc/callback',
    ...overrides,
  },
});

describe('single sign-on in the console', () => {
  it('offers the provider beside the password form, keeping the way back', async () => {
    mockApi({ 'GET /api/auth/session': signedOut, 'GET /api/auth/options': options() });
    const setup = harness();
    await setup.router.push('/login?redirect=%2Fs%2Fbob%2Fq3-report');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    const button = wrapper.find('[data-test="sso-button"]');
    expect(button.text()).toBe('Corp SSO');
    expect(button.attributes('href')).toBe('/api/auth/oidc/start?next=%2Fs%2Fbob%2Fq3-report');
    expect(wrapper.find('[data-test="login-form"]').exists()).toBe(true);
  });

  it('shows no password form and no registration when PASSWORD_LOGIN is off', async () => {
    mockApi({
      'GET /api/auth/session': signedOut,
      'GET /api/auth/options': options({ passwordLogin: false, registration: false }),
    });
    const setup = harness();
    await setup.router.push('/login');
    const login = mountWith(LoginPage, setup);
    await settle();
    expect(login.find('[data-test="login-form"]').exists()).toBe(false);
    expect(login.find('#login-password').exists()).toBe(false);
    expect(login.find('[data-test="sso-button"]').attributes('href')).toBe('/api/auth/oidc/start?next=%2Ffiles');
    expect(login.text()).not.toContain('Create an account');
    const register = mountWith(RegisterPage, setup);
    await settle();
    expect(register.find('[data-test="register-form"]').exists()).toBe(false);
    expect(register.find('[data-test="register-off"]').text()).toContain('the first sign-in creates your account');
  });

  it('keeps the password form and no button where single sign-on is off or the options cannot be read', async () => {
    mockApi({ 'GET /api/auth/session': signedOut });
    const setup = harness();
    await setup.router.push('/login');
    const wrapper = mountWith(LoginPage, setup);
    await settle();
    expect(wrapper.find('[data-test="login-form"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="sso-button"]').exists()).toBe(false);
  });

  it('explains a failed single sign-on in the UI language', async () => {
    mockApi({ 'GET /api/auth/session': signedOut, 'GET /api/auth/options': options() });
    const zh = harness('zh');
    await zh.router.push('/login?error=sso-unverified&redirect=%2Ffiles');
    const chinese = mountWith(LoginPage, zh);
    await settle();
    expect(chinese.find('[data-test="sso-error"]').text()).toContain('身份提供方未证实此地址');
    const en = harness('en');
    await en.router.push('/login?error=sso');
    const english = mountWith(LoginPage, en);
    await settle();
    expect(english.find('[data-test="sso-error"]').text()).toBe(
      'Single sign-on did not complete, and you were not signed in. Try again, or sign in another way.',
    );
  });

  it('shows the redirect URI to register at the provider, and whether the address is verified', async () => {
    mockApi({
      'GET /api/auth/session': {
        status: 200,
        body: { user: { ...user, emailVerified: false, hasPassword: false, twoFactorEnabled: false } },
      },
      'GET /api/auth/options': options(),
    });
    const setup = harness();
    await setup.router.push('/account');
    const wrapper = mountWith(AccountPage, setup);
    await settle();
    expect(wrapper.find('[data-test="sso-redirect-uri"]').text()).toBe('https://share.example/api/auth/oidc/callback');
    expect(wrapper.find('[data-test="email-verified"]').text()).toBe('Not verified');
    useSessionStore().user = { ...useSessionStore().user!, emailVerified: true };
    await settle();
    expect(wrapper.find('[data-test="email-verified"]').text()).toBe('Verified');
  });

  it('hides the redirect URI where single sign-on is off', async () => {
    mockApi({
      'GET /api/auth/session': {
        status: 200,
        body: { user: { ...user, emailVerified: true, hasPassword: true, twoFactorEnabled: false } },
      },
      'GET /api/auth/options': options({ oidcLabel: null }),
    });
    const setup = harness();
    await setup.router.push('/account');
    const wrapper = mountWith(AccountPage, setup);
    await settle();
    expect(wrapper.find('[data-test="sso-panel"]').exists()).toBe(false);
  });
});
