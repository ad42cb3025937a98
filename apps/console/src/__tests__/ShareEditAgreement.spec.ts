import { beforeEach, describe, expect, it } from 'vitest';
import ShareEditPanel from '../pages/shares/ShareEditPanel.vue';
import { harness, mockApi, mountWith, settle, type Harness, type RecordedCall } from './helpers';

const share = {
  id: 's1',
  token: 'tok',
  ownerSegment: 'alice',
  fileId: 'f1',
  fileName: 'notes.md',
  fileKind: 'MARKDOWN',
  hasPassword: false,
  expiresAt: null,
  maxVisits: null,
  perVisitorMaxVisits: null,
  perLoginUserMaxVisits: null,
  visitCount: 0,
  uniqueVisitCount: 0,
  oneTime: false,
  requireLogin: false,
  watermarkEnabled: true,
  watermarkText: null,
  copyProtectionEnabled: false,
  burnAfterReadEnabled: false,
  revokedAt: null,
  consumedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
} as const;
const agreement = { text: 'Keep it secret.', requireName: false, sha256: 'a'.repeat(64) };
const policies = { oneSession: false, emailAllowlist: [] };
const patches = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'PATCH').map((call) => call.body);

describe('ShareEditPanel: agreement and watermark', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('adds an agreement to a share without one', async () => {
    const { calls } = mockApi({ 'PATCH /api/console/shares/s1': { status: 200, body: { ...share, agreement } } });
    const wrapper = mountWith(ShareEditPanel, setup, { props: { share: { ...share, agreement: null }, policies } });
    await wrapper.find('[data-test="edit-agreement-toggle"]').setValue(true);
    // Nothing to accept yet: the form cannot be saved.
    expect(wrapper.find('[data-test="edit-save"]').attributes('disabled')).toBeDefined();
    expect(wrapper.find('#edit-agreement-hint').text()).toBe('Write the text visitors accept.');
    await wrapper.find('[data-test="edit-agreement-text"]').setValue('Keep it secret.');
    await wrapper.find('[data-test="edit-agreement-name"]').setValue(true);
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(patches(calls)).toEqual([{ agreement: { text: 'Keep it secret.', requireName: true } }]);
  });

  it('changes the text of an agreement, and leaves an unchanged one out of the request', async () => {
    const { calls } = mockApi({ 'PATCH /api/console/shares/s1': { status: 200, body: { ...share, agreement } } });
    const wrapper = mountWith(ShareEditPanel, setup, { props: { share: { ...share, agreement }, policies } });
    expect((wrapper.find('[data-test="edit-agreement-text"]').element as HTMLTextAreaElement).value).toBe('Keep it secret.');
    await wrapper.find('[data-test="edit-watermark-text"]').setValue('{name} · {date}');
    await wrapper.find('form').trigger('submit');
    await settle();
    await wrapper.find('[data-test="edit-agreement-text"]').setValue('Keep it very secret.');
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(patches(calls)).toEqual([
      { watermarkText: '{name} · {date}' },
      { watermarkText: '{name} · {date}', agreement: { text: 'Keep it very secret.', requireName: false } },
    ]);
  });

  it('removes the agreement with null', async () => {
    const { calls } = mockApi({ 'PATCH /api/console/shares/s1': { status: 200, body: { ...share, agreement: null } } });
    const wrapper = mountWith(ShareEditPanel, setup, { props: { share: { ...share, agreement }, policies } });
    await wrapper.find('[data-test="edit-agreement-toggle"]').setValue(false);
    await wrapper.find('form').trigger('submit');
    await settle();
    expect(patches(calls)).toEqual([{ agreement: null }]);
    expect(wrapper.emitted('saved')?.[0]?.[0]).toMatchObject({ agreement: null });
  });

  it('refuses a watermark template over 80 characters and names the placeholders', async () => {
    mockApi({});
    const wrapper = mountWith(ShareEditPanel, setup, { props: { share: { ...share }, policies } });
    expect(wrapper.find('[data-test="edit-watermark-hint"]').text()).toContain('{email}');
    await wrapper.find('[data-test="edit-watermark-text"]').setValue(`{email}${'-'.repeat(74)}`);
    expect(wrapper.find('[data-test="edit-watermark-hint"]').text()).toBe('At most 80 characters.');
    expect(wrapper.find('[data-test="edit-save"]').attributes('disabled')).toBeDefined();
  });
});
