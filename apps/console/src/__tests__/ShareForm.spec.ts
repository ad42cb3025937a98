import { beforeEach, describe, expect, it } from 'vitest';
import ShareForm from '../pages/shares/ShareForm.vue';
import { harness, mountWith, type Harness } from './helpers';

function mountForm(setup: Harness) {
  return mountWith(ShareForm, setup, {
    props: { segment: 'alice', versions: [{ id: 'v1', label: 'v1' }], busy: false, error: null },
    attachTo: document.body,
  });
}

describe('ShareForm', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('submits an open link as an empty ShareInput', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{}]]);
    wrapper.unmount();
  });

  it('shows each limit inline and refuses to submit until they hold', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-password-toggle"]').setValue(true);
    await wrapper.find('#sf-password').setValue('abc');
    await wrapper.find('[data-test="sf-max-visits-toggle"]').setValue(true);
    await wrapper.find('#sf-max-visits').setValue('10000');
    await wrapper.find('[data-test="sf-slug-toggle"]').setValue(true);
    await wrapper.find('#sf-slug').setValue('no spaces please');
    // Numeric limits are checked as the user types; text fields once left or on submit.
    expect(wrapper.find('#sf-max-visits-hint').text()).toBe('Enter a whole number from 1 to 9999.');
    expect(wrapper.find('#sf-password-hint').classes()).toContain('field-hint');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toBeUndefined();
    expect(wrapper.find('#sf-password-hint').text()).toBe('The password must be 4 to 32 characters long.');
    expect(wrapper.find('#sf-slug-hint').text()).toBe('Use 3 to 32 letters, digits, _ or -.');
    await wrapper.find('#sf-password').setValue('abcd');
    await wrapper.find('#sf-max-visits').setValue('3');
    await wrapper.find('#sf-slug').setValue('q3-report');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{ password: 'abcd', maxVisits: 3, slug: 'q3-report' }]]);
    wrapper.unmount();
  });

  it('locks the total cap of a one-time link and forces sign-in for an allowlist', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-one-time"]').setValue(true);
    expect(wrapper.find('[data-test="sf-max-visits-toggle"]').attributes('disabled')).toBeDefined();
    await wrapper.find('[data-test="sf-allowlist-toggle"]').setValue(true);
    const login = wrapper.find('[data-test="sf-require-login"]');
    expect((login.element as HTMLInputElement).checked).toBe(true);
    expect(login.attributes('disabled')).toBeDefined();
    await wrapper.find('#sf-allowlist').setValue('bob@example.com');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{ oneTime: true, requireLogin: true, emailAllowlist: ['bob@example.com'] }]]);
    wrapper.unmount();
  });

  it('keeps the visitor summary and the link preview live', async () => {
    const wrapper = mountForm(setup);
    const summary = () => wrapper.find('[data-test="share-summary"]').text();
    expect(summary()).toContain('Anyone with the link can open it.');
    await wrapper.find('[data-test="sf-password-toggle"]').setValue(true);
    expect(summary()).toContain('They are asked for the password.');
    await wrapper.find('[data-test="sf-per-visitor-toggle"]').setValue(true);
    await wrapper.find('#sf-per-visitor').setValue('2');
    expect(summary()).toContain('Each visitor can view it 2 times.');
    await wrapper.find('[data-test="sf-slug-toggle"]').setValue(true);
    await wrapper.find('#sf-slug').setValue('team-notes');
    expect(wrapper.find('.link-preview').text()).toBe(`${window.location.origin}/s/alice/team-notes`);
    await wrapper.find('#sf-version').setValue('v1');
    expect(summary()).toContain('They always see the pinned version.');
    wrapper.unmount();
  });
});
