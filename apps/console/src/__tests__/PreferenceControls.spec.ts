import { describe, expect, it } from 'vitest';
import PreferenceControls from '../components/PreferenceControls.vue';
import { LOCALE_KEY } from '../i18n';
import { harness, mountWith } from './helpers';

describe('PreferenceControls', () => {
  it('lists every language in its own name, marked with its language', () => {
    const sut = mountWith(PreferenceControls, harness('en'));
    const options = sut.findAll('[data-test="locale-switch"] option');
    expect(options.map((option) => option.text())).toEqual(['中文', 'English', '日本語', 'Deutsch', 'Français', 'Español']);
    expect(options.map((option) => option.attributes('lang'))).toEqual(['zh-CN', 'en', 'ja', 'de', 'fr', 'es']);
    expect((sut.get('[data-test="locale-switch"]').element as HTMLSelectElement).value).toBe('en');
  });

  it('switches the console to the chosen language, marks the page and remembers the choice', async () => {
    localStorage.removeItem(LOCALE_KEY);
    const setup = harness('en');
    const sut = mountWith(PreferenceControls, setup);
    await sut.get('[data-test="locale-switch"]').setValue('ja');
    expect(setup.i18n.global.locale.value).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(localStorage.getItem(LOCALE_KEY)).toBe('ja');
    expect(sut.get('label.language').attributes('title')).toBe(setup.i18n.global.t('prefs.switchLanguage'));
  });
});
