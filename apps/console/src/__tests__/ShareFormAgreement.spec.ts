import { beforeEach, describe, expect, it } from 'vitest';
import ShareForm from '../pages/shares/ShareForm.vue';
import { harness, mountWith, type Harness } from './helpers';

function mountForm(setup: Harness, props: { collection?: boolean } = {}) {
  return mountWith(ShareForm, setup, {
    props: { segment: 'alice', versions: [{ id: 'v1', label: 'v1' }], busy: false, error: null, ...props },
    attachTo: document.body,
  });
}

describe('ShareForm: agreement and reader-naming watermark', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('sends the agreement as { text, requireName } once its text holds', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-agreement-toggle"]').setValue(true);
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toBeUndefined();
    expect(wrapper.find('#sf-agreement-hint').text()).toBe('Write the text visitors accept.');
    expect(wrapper.find('#sf-agreement').attributes('aria-invalid')).toBe('true');

    await wrapper.find('#sf-agreement').setValue('## NDA\n\nKeep it to yourself.');
    expect(wrapper.find('#sf-agreement-hint').text()).toBe('28 / 20000 characters');
    await wrapper.find('[data-test="sf-agreement-name"]').setValue(true);
    expect(wrapper.find('[data-test="share-summary"]').text()).toContain(
      'They accept your agreement, signing with their name, before anything is shown.',
    );
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{ agreement: { text: '## NDA\n\nKeep it to yourself.', requireName: true } }]]);
    wrapper.unmount();
  });

  it('refuses an agreement over 20,000 characters, counting an emoji as one', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-agreement-toggle"]').setValue(true);
    await wrapper.find('#sf-agreement').setValue('😀'.repeat(20_000));
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toHaveLength(1);
    await wrapper.find('#sf-agreement').setValue('x'.repeat(20_001));
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toHaveLength(1);
    expect(wrapper.find('#sf-agreement-hint').text()).toBe('The agreement must be 1 to 20000 characters long.');
    wrapper.unmount();
  });

  it('sends no agreement when the switch is off, whatever was typed', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-agreement-toggle"]').setValue(true);
    await wrapper.find('#sf-agreement').setValue('Terms');
    await wrapper.find('[data-test="sf-agreement-toggle"]').setValue(false);
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{}]]);
    wrapper.unmount();
  });

  it('lists the watermark placeholders and counts the template against the limit of 80', async () => {
    const wrapper = mountForm(setup);
    await wrapper.find('[data-test="sf-watermark-toggle"]').setValue(true);
    const help = wrapper.find('[data-test="sf-watermark-placeholders"]').text();
    for (const token of ['{email}', '{name}', '{date}', '{ip}']) expect(help).toContain(token);
    await wrapper.find('#sf-watermark').setValue('{name} · {email} · {date}');
    expect(wrapper.find('#sf-watermark-hint').text()).toBe('25 / 80 characters');
    await wrapper.find('#sf-watermark').setValue(`{email} ${'x'.repeat(73)}`);
    expect(wrapper.find('#sf-watermark-hint').text()).toBe('At most 80 characters.');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toBeUndefined();
    await wrapper.find('#sf-watermark').setValue('{name} · {email} · {date}');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{ watermarkEnabled: true, watermarkText: '{name} · {email} · {date}' }]]);
    wrapper.unmount();
  });

  it('offers no version pinning for a collection', async () => {
    const wrapper = mountForm(setup, { collection: true });
    expect(wrapper.find('#sf-version').exists()).toBe(false);
    expect(wrapper.find('[data-test="sf-collection-versions"]').exists()).toBe(true);
    expect(wrapper.find('[data-test="share-summary"]').text()).toContain(
      'They see the folder’s clean documents, including ones added later.',
    );
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toEqual([[{}]]);
    wrapper.unmount();
  });
});
