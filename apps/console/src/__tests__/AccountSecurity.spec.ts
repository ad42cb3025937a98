import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onUnauthenticated } from '../api/client';
import PasswordForm from '../pages/account/PasswordForm.vue';
import SessionsPanel from '../pages/account/SessionsPanel.vue';
import TwoFactorPanel from '../pages/account/TwoFactorPanel.vue';
import { useConfirmStore } from '../stores/confirm';
import { useSessionStore } from '../stores/session';
import { useToastsStore } from '../stores/toasts';
import { envelope, harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

const alice = { ...user, emailVerified: true, hasPassword: true, twoFactorEnabled: false };
// As in the console's main.ts: a 401 from an ordinary call means the session ended.
let stopListening: () => void = () => undefined;
beforeEach(() => (stopListening = onUnauthenticated(() => useSessionStore().markExpired())));
afterEach(() => stopListening());

const RECOVERY = Array.from({ length: 10 }, (_, i) => `k3m9q-x7t${String.fromCharCode(97 + i)}a`);

describe('PasswordForm', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    useSessionStore().user = { ...alice };
  });

  it('asks for the current password and sends nothing while the new one is too short or unrepeated', async () => {
    const { calls } = mockApi({});
    const wrapper = mountWith(PasswordForm, setup);
    await wrapper.find('#password-new').setValue('short');
    await wrapper.find('#password-confirm').setValue('other');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#password-current-error').text()).toBe('Enter your current password.');
    expect(wrapper.find('#password-new-hint').classes()).toContain('field-error');
    expect(wrapper.find('#password-confirm-error').text()).toBe('The passwords do not match.');
    expect(calls.filter((c) => c.path === '/api/auth/password')).toHaveLength(0);
  });

  it('says the current password is wrong without signing the console out', async () => {
    mockApi({ 'POST /api/auth/password': envelope(401, 'UNAUTHENTICATED', '当前密码错误') });
    const wrapper = mountWith(PasswordForm, setup);
    await wrapper.find('#password-current').setValue('not it');
    await wrapper.find('#password-new').setValue('a brand new secret');
    await wrapper.find('#password-confirm').setValue('a brand new secret');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#password-current-error').text()).toBe('The current password is not right.');
    const session = useSessionStore();
    expect(session.user).not.toBeNull();
    expect(session.expired).toBe(false);
  });

  it('changes the password, says the other sessions ended and tells the page', async () => {
    const { calls } = mockApi({ 'POST /api/auth/password': { status: 200, body: { user: alice } } });
    const wrapper = mountWith(PasswordForm, setup);
    await wrapper.find('#password-current').setValue('correct horse battery');
    await wrapper.find('#password-new').setValue('a brand new secret');
    await wrapper.find('#password-confirm').setValue('a brand new secret');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/auth/password')?.body).toEqual({
      currentPassword: 'correct horse battery',
      newPassword: 'a brand new secret',
    });
    expect(useToastsStore().toasts.map((toast) => toast.text)).toContain('Password changed. Other sessions were signed out.');
    expect(wrapper.emitted('changed')).toHaveLength(1);
    expect((wrapper.find('#password-new').element as HTMLInputElement).value).toBe('');
  });

  it('lets an account without a password set one without a current password', async () => {
    useSessionStore().user = { ...alice, hasPassword: false };
    const { calls } = mockApi({ 'POST /api/auth/password': { status: 200, body: { user: alice } } });
    const wrapper = mountWith(PasswordForm, setup);
    expect(wrapper.find('#password-current').exists()).toBe(false);
    expect(wrapper.find('button[type="submit"]').text()).toBe('Set password');
    await wrapper.find('#password-new').setValue('first password ever');
    await wrapper.find('#password-confirm').setValue('first password ever');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/auth/password')?.body).toEqual({ newPassword: 'first password ever' });
    expect(useSessionStore().user?.hasPassword).toBe(true);
  });
});

describe('TwoFactorPanel', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    useSessionStore().user = { ...alice };
  });

  it('enrols with a QR code and the key, refuses a wrong code, then shows the recovery codes once', async () => {
    let enabled = false;
    const { calls } = mockApi({
      'POST /api/auth/2fa/setup': {
        status: 200,
        body: {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Sharedown:alice%40example.com?secret=JBSW',
        },
      },
      'POST /api/auth/2fa/enable': (call) =>
        (call.body as { code: string }).code === '123456'
          ? ((enabled = true), { status: 200, body: { recoveryCodes: RECOVERY } })
          : envelope(401, 'UNAUTHENTICATED', '验证码错误'),
      'GET /api/auth/session': () => ({ status: 200, body: { user: { ...alice, twoFactorEnabled: enabled } } }),
      'GET /api/auth/2fa': { status: 200, body: { enabled: true, recoveryCodesLeft: 10 } },
    });
    const wrapper = mountWith(TwoFactorPanel, setup);
    expect(wrapper.find('[data-test="two-factor-state"]').text()).toBe('Off');
    await wrapper.find('[data-test="two-factor-setup"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-test="totp-secret"]').text()).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await expect.poll(() => wrapper.find('.qr svg').exists()).toBe(true);
    const input = wrapper.find('#two-factor-code');
    expect(input.attributes('autocomplete')).toBe('one-time-code');

    await input.setValue('12345');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.filter((c) => c.path === '/api/auth/2fa/enable')).toHaveLength(0);

    await input.setValue('654321');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#two-factor-code-hint').text()).toBe('The code is not right, or it was used already.');
    expect(useSessionStore().user).not.toBeNull();

    await input.setValue('123456');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.findAll('[data-test="recovery-code"]').map((item) => item.text())).toEqual(RECOVERY);
    expect(wrapper.find('[data-test="two-factor-state"]').text()).toBe('On');
    expect(wrapper.find('[data-test="totp-secret"]').exists()).toBe(false);
    expect(wrapper.emitted('enabled')).toHaveLength(1);
    await wrapper.find('[data-test="recovery-dismiss"]').trigger('click');
    expect(wrapper.find('[data-test="recovery-codes"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="codes-left"]').text()).toBe('Recovery codes left: 10');
  });

  it('says On beside the recovery codes while the session is still being fetched again', async () => {
    let answerSession: () => void = () => undefined;
    mockApi({
      'POST /api/auth/2fa/setup': {
        status: 200,
        body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://x' },
      },
      'POST /api/auth/2fa/enable': { status: 200, body: { recoveryCodes: RECOVERY } },
      'GET /api/auth/session': () =>
        new Promise((resolve) => {
          answerSession = () => resolve({ status: 200, body: { user: { ...alice, twoFactorEnabled: true } } });
        }),
      'GET /api/auth/2fa': { status: 200, body: { enabled: true, recoveryCodesLeft: 10 } },
    });
    const wrapper = mountWith(TwoFactorPanel, setup);
    await wrapper.find('[data-test="two-factor-setup"]').trigger('click');
    await settle();
    await wrapper.find('#two-factor-code').setValue('123456');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.findAll('[data-test="recovery-code"]')).toHaveLength(10);
    expect(wrapper.find('[data-test="two-factor-state"]').text()).toBe('On');
    answerSession();
    await settle();
    expect(wrapper.find('[data-test="two-factor-state"]').text()).toBe('On');
  });

  it('turns off with a recovery code', async () => {
    useSessionStore().user = { ...alice, twoFactorEnabled: true };
    const { calls } = mockApi({
      'GET /api/auth/2fa': { status: 200, body: { enabled: true, recoveryCodesLeft: 3 } },
      'POST /api/auth/2fa/disable': { status: 200, body: { user: alice } },
    });
    const wrapper = mountWith(TwoFactorPanel, setup);
    await settle();
    expect(wrapper.find('[data-test="codes-left"]').text()).toBe('Recovery codes left: 3');
    await wrapper.find('[data-test="two-factor-disable"]').trigger('click');
    await wrapper.find('#two-factor-code').setValue('K3M9Q-X7T2A');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/auth/2fa/disable')?.body).toEqual({ code: 'K3M9Q-X7T2A' });
    expect(wrapper.find('[data-test="two-factor-state"]').text()).toBe('Off');
    expect(useSessionStore().user?.twoFactorEnabled).toBe(false);
  });

  it('renews the recovery codes and shows the new set', async () => {
    useSessionStore().user = { ...alice, twoFactorEnabled: true };
    mockApi({
      'GET /api/auth/2fa': { status: 200, body: { enabled: true, recoveryCodesLeft: 10 } },
      'POST /api/auth/2fa/recovery-codes': { status: 200, body: { recoveryCodes: RECOVERY } },
    });
    const wrapper = mountWith(TwoFactorPanel, setup, {});
    await settle();
    await wrapper.find('[data-test="two-factor-renew"]').trigger('click');
    await wrapper.find('#two-factor-code').setValue('246810');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.findAll('[data-test="recovery-code"]')).toHaveLength(10);
  });
});

describe('SessionsPanel', () => {
  const sessions = [
    {
      id: 's1',
      current: true,
      method: 'password',
      createdAt: '2026-11-20T10:00:00Z',
      lastSeenAt: new Date().toISOString(),
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      device: 'Firefox on Linux',
      ipPrefix: '203.0.113.0/24',
    },
    {
      id: 's2',
      current: false,
      method: 'oidc',
      createdAt: '2026-11-19T10:00:00Z',
      lastSeenAt: '2026-11-19T12:00:00Z',
      userAgent: null,
      device: 'Safari on iPhone',
      ipPrefix: '2001:db8:1::/48',
    },
  ];

  it('lists the sessions, marks this browser, and ends another one after confirming', async () => {
    const setup = harness();
    const { calls } = mockApi({
      'GET /api/auth/sessions': { status: 200, body: { sessions } },
      'DELETE /api/auth/sessions/s2': { status: 200, body: { ok: true } },
    });
    const wrapper = mountWith(SessionsPanel, setup);
    await settle();
    const rows = wrapper.findAll('tbody tr');
    expect(rows.map((row) => row.find('td span').text())).toEqual(['Firefox on Linux', 'Safari on iPhone']);
    expect(rows.map((row) => row.find('.badge').exists())).toEqual([true, false]);
    expect(rows[0]!.find('.badge').text()).toBe('This browser');
    expect(rows[1]!.text()).toContain('Single sign-on');
    expect(rows[1]!.text()).toContain('2001:db8:1::/48');
    expect(rows[0]!.find('[data-test="session-end"]').exists()).toBe(false);

    await rows[1]!.find('[data-test="session-end"]').trigger('click');
    const confirm = useConfirmStore();
    expect(confirm.request?.message).toBe('“Safari on iPhone” will be signed out.');
    confirm.answer(true);
    await settle();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/auth/sessions/s2')).toBe(true);
    expect(wrapper.findAll('tbody tr')).toHaveLength(1);
    expect(wrapper.find('[data-test="sessions-end-others"]').exists()).toBe(false);
  });

  it('ends all other sessions and says how many', async () => {
    const setup = harness('zh');
    let ended = false;
    const { calls } = mockApi({
      'GET /api/auth/sessions': () => ({ status: 200, body: { sessions: ended ? [sessions[0]] : sessions } }),
      'DELETE /api/auth/sessions': () => ((ended = true), { status: 200, body: { ended: 1 } }),
    });
    const wrapper = mountWith(SessionsPanel, setup);
    await settle();
    expect(wrapper.find('tbody tr').text()).toContain('当前浏览器');
    await wrapper.find('[data-test="sessions-end-others"]').trigger('click');
    useConfirmStore().answer(true);
    await settle();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/auth/sessions')).toBe(true);
    expect(useToastsStore().toasts.map((toast) => toast.text)).toContain('已结束的会话：1');
    expect(wrapper.findAll('tbody tr')).toHaveLength(1);
  });
});
