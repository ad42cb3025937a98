import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import { LOCALE_KEY, LOCALE_TAGS, safeStorageGet, safeStorageSet, type Locale } from '../i18n';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_KEY = 'sharedown.theme';

function systemPrefersDark(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches
  );
}

/** Language and theme, remembered in this browser. */
export const usePreferencesStore = defineStore('preferences', () => {
  const savedTheme = safeStorageGet(THEME_KEY);
  const theme = ref<ThemeChoice>(savedTheme === 'light' || savedTheme === 'dark' ? savedTheme : 'system');
  const effectiveTheme = ref<'light' | 'dark'>('light');

  function applyTheme(): void {
    effectiveTheme.value = theme.value === 'system' ? (systemPrefersDark() ? 'dark' : 'light') : theme.value;
    document.documentElement.dataset.theme = effectiveTheme.value;
    document.documentElement.style.colorScheme = effectiveTheme.value;
  }

  function setTheme(choice: ThemeChoice): void {
    theme.value = choice;
    safeStorageSet(THEME_KEY, choice);
  }

  /** Light → dark → system, the order a single toggle button walks through. */
  function cycleTheme(): void {
    setTheme(theme.value === 'light' ? 'dark' : theme.value === 'dark' ? 'system' : 'light');
  }

  /** Marks the document language; `persist` only when the user chose it, so detection keeps working otherwise. */
  function applyLocale(locale: Locale, persist: boolean): void {
    if (persist) safeStorageSet(LOCALE_KEY, locale);
    document.documentElement.lang = LOCALE_TAGS[locale];
  }

  watch(theme, applyTheme);
  if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', applyTheme);
  }
  applyTheme();

  return { theme, effectiveTheme, setTheme, cycleTheme, applyLocale };
});
