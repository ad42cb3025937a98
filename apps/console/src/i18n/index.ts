import { SHARED_MESSAGES } from '@sharedown/i18n';
import { createI18n } from 'vue-i18n';
import de from './de';
import en from './en';
import es from './es';
import fr from './fr';
import { icuCompiler } from './icuCompiler';
import ja from './ja';
import { isLocale, locales, type Locale } from './locales';
import zh from './zh';

export { isLocale, languageName, locales, LOCALE_TAGS, type Locale } from './locales';

export const LOCALE_KEY = 'sharedown.locale';

/** Each console catalog with the words it shares with the CLI (api errors, validation issues). */
export const messages = {
  zh: { ...zh, ...SHARED_MESSAGES['zh-CN'] },
  en: { ...en, ...SHARED_MESSAGES.en },
  ja: { ...ja, ...SHARED_MESSAGES.ja },
  de: { ...de, ...SHARED_MESSAGES.de },
  fr: { ...fr, ...SHARED_MESSAGES.fr },
  es: { ...es, ...SHARED_MESSAGES.es },
};

/** A saved choice wins; otherwise the first browser language we speak (any zh-* reads Chinese), else English. */
export function detectLocale(
  saved: string | null = safeStorageGet(LOCALE_KEY),
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Locale {
  if (isLocale(saved)) return saved;
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    const spoken = locales.find((locale) => locale === primary);
    if (spoken) return spoken;
  }
  return 'en';
}

export function safeStorageGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function safeStorageSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or disabled storage: the choice lasts for this page only.
  }
}

export function createConsoleI18n(locale: Locale = detectLocale()) {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages,
    messageCompiler: icuCompiler,
    missingWarn: false,
    fallbackWarn: false,
  });
}

export type ConsoleI18n = ReturnType<typeof createConsoleI18n>;
