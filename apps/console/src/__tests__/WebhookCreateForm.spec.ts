import { beforeEach, describe, expect, it } from 'vitest';
import { webhookUrlProblem } from '../composables/validators';
import WebhookCreateForm from '../pages/webhooks/WebhookCreateForm.vue';
import { envelope, harness, mockApi, mountWith, settle, type Harness } from './helpers';

describe('webhookUrlProblem', () => {
  it.each([
    ['', 'required'],
    ['ftp://example.com/hook', 'scheme'],
    ['not a url', 'scheme'],
    ['https://user:pw@example.com/hook', 'credentials'],
    [`https://example.com/${'x'.repeat(2048)}`, 'length'],
    ['https://hooks.example.com/sharedown', null],
    ['http://example.com:8080/x?y=1', null],
  ])('%s → %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });
});

describe('WebhookCreateForm', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('requires at least one event', async () => {
    const { calls } = mockApi({});
    const wrapper = mountWith(WebhookCreateForm, setup, { props: { activeCount: 0 } });
    await wrapper.find('#webhook-url').setValue('https://hooks.example.com/x');
    await wrapper.find('[data-event="share_visited"]').setValue(false);
    await wrapper.find('form').trigger('submit');
    expect(wrapper.find('#webhook-events-error').text()).toBe('Choose at least one event.');
    expect(calls.filter((c) => c.path === '/api/webhooks')).toHaveLength(0);
  });

  it('posts the URL and events and emits the one-time secret', async () => {
    const webhook = {
      id: 'w1',
      url: 'https://hooks.example.com/x',
      events: ['share_visited', 'share_reported'],
      active: true,
      createdAt: '2026-01-01T00:00:00Z',
    };
    const { calls } = mockApi({ 'POST /api/webhooks': { status: 200, body: { webhook, secret: 's3cr3t' } } });
    const wrapper = mountWith(WebhookCreateForm, setup, { props: { activeCount: 2 } });
    await wrapper.find('#webhook-url').setValue(' https://hooks.example.com/x ');
    await wrapper.find('[data-event="share_reported"]').setValue(true);
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.find((c) => c.path === '/api/webhooks')?.body).toEqual({
      url: 'https://hooks.example.com/x',
      events: ['share_visited', 'share_reported'],
    });
    expect(wrapper.emitted('created')).toEqual([[webhook, 's3cr3t']]);
  });

  it('warns at the active limit and shows the 409 from the API', async () => {
    mockApi({ 'POST /api/webhooks': envelope(409, 'CONFLICT', '最多只能有 10 个启用的 Webhook') });
    const wrapper = mountWith(WebhookCreateForm, setup, { props: { activeCount: 10 } });
    expect(wrapper.text()).toContain('You already have 10 active webhooks, the maximum.');
    await wrapper.find('#webhook-url').setValue('https://hooks.example.com/x');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[role="alert"]').text()).toBe('This conflicts with the current state. Reload and try again.');
  });
});
