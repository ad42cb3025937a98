/** The languages Sharedown speaks, as BCP 47 tags; the order of the language menus. */
export const LOCALES = ['zh-CN', 'en', 'ja', 'de', 'fr', 'es'] as const;

export type LocaleTag = (typeof LOCALES)[number];

/** Each language in its own name, as a menu lists it. */
export const LANGUAGE_NAMES: Record<LocaleTag, string> = {
  'zh-CN': '中文',
  en: 'English',
  ja: '日本語',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

export function isLocaleTag(value: unknown): value is LocaleTag {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
