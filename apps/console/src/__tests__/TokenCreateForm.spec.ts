import { beforeEach, describe, expect, it } from 'vitest';
import TokenCreateForm from '../pages/tokens/TokenCreateForm.vue';
import { envelope, harness, mockApi, mountWith, settle, type Harness } from './helpers';

const token = {
  id: 't1',
  name: 'ci',
  prefix: 'shd_abc',
  rateLimitPerMinute: 60,
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: null,
  revokedAt: null,
  scopes: ['read', 'write'],
  expiresAt: null,
};

describe('TokenCreateForm', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('explains the limits beside the fields and sends nothing while they are broken', async () => {
    const { calls } = mockApi({});
    const wrapper = mountWith(TokenCreateForm, setup);
    await wrapper.find('#token-rate').setValue('601');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#token-name-error').text()).toBe('Give the token a name of 1 to 100 characters.');
    expect(wrapper.find('#token-rate-hint').classes()).toContain('field-error');
    expect(wrapper.find('#token-rate').attributes('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.path === '/api/tokens')).toHaveLength(0);
  });

  it('creates the token with the chosen rate and hands the plaintext over once', async () => {
    const { calls } = mockApi({ 'POST /api/tokens': { status: 200, body: { token, plaintext: 'shd_abc_secret' } } });
    const wrapper = mountWith(TokenCreateForm, setup);
    await wrapper.find('#token-name').setValue('  ci  ');
    await wrapper.find('#token-rate').setValue('60');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/tokens')?.body).toEqual({
      name: 'ci',
      rateLimitPerMinute: 60,
      scopes: ['read', 'write'],
    });
    expect(wrapper.emitted('created')).toEqual([[token, 'shd_abc_secret']]);
    expect((wrapper.find('#token-name').element as HTMLInputElement).value).toBe('');
  });

  it('creates a read-only token that expires after the chosen days', async () => {
    const { calls } = mockApi({ 'POST /api/tokens': { status: 200, body: { token, plaintext: 'shd_abc_secret' } } });
    const wrapper = mountWith(TokenCreateForm, setup);
    await wrapper.find('#token-name').setValue('reader');
    await wrapper.find('#token-access').setValue('read');
    await wrapper.find('#token-expiry').setValue('30');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/tokens')?.body).toEqual({
      name: 'reader',
      rateLimitPerMinute: 5,
      scopes: ['read'],
      expiresInDays: 30,
    });
  });

  it('refuses an expiry outside 1 to 3650 days without sending anything', async () => {
    const { calls } = mockApi({});
    const wrapper = mountWith(TokenCreateForm, setup);
    await wrapper.find('#token-name').setValue('reader');
    await wrapper.find('#token-expiry').setValue('3651');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('#token-expiry-hint').classes()).toContain('field-error');
    expect(calls.filter((c) => c.path === '/api/tokens')).toHaveLength(0);
  });

  it('shows the API error in the UI language', async () => {
    mockApi({ 'POST /api/tokens': envelope(400, 'VALIDATION', 'name 长度必须在 1 到 100 个字符之间', { field: 'name' }) });
    const wrapper = mountWith(TokenCreateForm, setup);
    await wrapper.find('#token-name').setValue('x');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[role="alert"]').text()).toBe('Some of the input is not valid. Check “name”.');
  });
});
