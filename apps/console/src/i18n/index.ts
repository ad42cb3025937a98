import { createI18n } from 'vue-i18n';
import type { Locale } from '../api/errors';
import en from './en';
import zh from './zh';

export const LOCALE_KEY = 'sharedown.locale';
export const locales: Locale[] = ['zh', 'en'];

/** A saved choice wins; otherwise the first browser language we speak, Chinese for any zh-*. */
export function detectLocale(
  saved: string | null = safeStorageGet(LOCALE_KEY),
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Locale {
  if (saved === 'zh' || saved === 'en') return saved;
  for (const language of languages) {
    const lower = language.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
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
    messages: { en, zh },
    missingWarn: false,
    fallbackWarn: false,
  });
}

export type ConsoleI18n = ReturnType<typeof createConsoleI18n>;
