import { beforeEach, describe, expect, it } from 'vitest';
import ShareEditPanel from '../pages/shares/ShareEditPanel.vue';
import { envelope, harness, mockApi, mountWith, settle, type Harness } from './helpers';

const share = {
  id: 's1',
  token: 'tok',
  ownerSegment: 'alice',
  fileId: 'f1',
  fileName: 'notes.md',
  fileKind: 'MARKDOWN',
  hasPassword: true,
  expiresAt: null,
  maxVisits: 10,
  perVisitorMaxVisits: null,
  perLoginUserMaxVisits: null,
  visitCount: 4,
  uniqueVisitCount: 2,
  oneTime: false,
  requireLogin: false,
  watermarkEnabled: false,
  watermarkText: null,
  copyProtectionEnabled: false,
  burnAfterReadEnabled: false,
  revokedAt: null,
  consumedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
} as const;

describe('ShareEditPanel', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('sends only what the owner changed, and hands back the saved share', async () => {
    const { calls } = mockApi({
      'PATCH /api/console/shares/s1': { status: 200, body: { ...share, maxVisits: 3, hasPassword: false } },
    });
    const wrapper = mountWith(ShareEditPanel, setup, {
      props: { share: { ...share }, policies: { oneSession: false, emailAllowlist: [] } },
    });
    await wrapper.find('[data-test="edit-max-visits"]').setValue('3');
    await wrapper.find('input[type="radio"][value="remove"]').setValue(true);
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ maxVisits: 3, password: null }]);
    expect(wrapper.emitted('saved')?.[0]?.[0]).toMatchObject({ maxVisits: 3, hasPassword: false });
  });

  it('changes when the owner is told about visits', async () => {
    const { calls } = mockApi({ 'PATCH /api/console/shares/s1': { status: 200, body: { ...share, notify: 'daily' } } });
    const wrapper = mountWith(ShareEditPanel, setup, {
      props: { share: { ...share, notify: 'off' }, policies: { oneSession: false, emailAllowlist: [] } },
    });
    expect(wrapper.findAll('[data-test="edit-notify"] option').map((option) => option.text())).toEqual([
      'Never',
      'On the first visit',
      'On every visit',
      'In a daily digest',
    ]);
    await wrapper.find('[data-test="edit-notify"]').setValue('daily');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ notify: 'daily' }]);
  });

  it('shows the refusal of the service and keeps the form open', async () => {
    mockApi({ 'PATCH /api/console/shares/s1': envelope(409, 'CONFLICT', '分享已撤销，不能再修改') });
    const wrapper = mountWith(ShareEditPanel, setup, {
      props: { share: { ...share }, policies: { oneSession: false, emailAllowlist: [] } },
    });
    await wrapper.find('[data-test="edit-max-visits"]').setValue('');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(wrapper.find('[role="alert"]').exists()).toBe(true);
    expect(wrapper.emitted('saved')).toBeUndefined();
  });
});
