import { LANGUAGE_NAMES, SHARED_MESSAGES, type LocaleTag, type SharedMessages } from '@sharedown/i18n';

/** The console's languages, as its catalogs and saved choice name them; the menu lists them in this order. */
export const locales = ['zh', 'en', 'ja', 'de', 'fr', 'es'] as const;
export type Locale = (typeof locales)[number];

/** The BCP 47 tag of each console language: for <html lang>, Intl, and the catalogs shared with the viewer and the CLI. */
export const LOCALE_TAGS: Record<Locale, LocaleTag> = { zh: 'zh-CN', en: 'en', ja: 'ja', de: 'de', fr: 'fr', es: 'es' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** "日本語", "Deutsch" …: each language in its own name. */
export function languageName(locale: Locale): string {
  return LANGUAGE_NAMES[LOCALE_TAGS[locale]];
}

/** The api error and validation issue words of a language, shared with the CLI. */
export function sharedMessagesOf(locale: string): SharedMessages {
  return SHARED_MESSAGES[LOCALE_TAGS[isLocale(locale) ? locale : 'en']];
}

/** The tag Intl formats with: any console language, English for anything else. */
export function intlTag(locale: string): LocaleTag {
  return LOCALE_TAGS[isLocale(locale) ? locale : 'en'];
}
