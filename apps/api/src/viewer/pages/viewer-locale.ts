import { LOCALES, isLocaleTag, type LocaleTag } from '@sharedown/i18n';
import Negotiator from 'negotiator';

/** The visitor's own choice from the page's language switch, on the origin that showed the page. */
export const LANGUAGE_COOKIE = 'sd_lang';
export const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600;

// Chinese of any region reads the simplified catalog better than a foreign language.
const ALIASES: Record<string, LocaleTag> = { zh: 'zh-CN' };

/**
 * The language of a viewer page: the visitor's saved choice, else the best match of the browser's
 * Accept-Language, else the instance's DEFAULT_LOCALE. The fallback is offered first, so a
 * wildcard or equally weighted languages settle on it.
 */
export function negotiateLocale(saved: string | undefined, acceptLanguage: string | undefined, fallback: LocaleTag): LocaleTag {
  if (isLocaleTag(saved)) return saved;
  if (!acceptLanguage?.trim()) return fallback;
  const offered = [fallback, ...LOCALES.filter((tag) => tag !== fallback), ...Object.keys(ALIASES)];
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(offered);
  if (best === undefined) return fallback;
  return isLocaleTag(best) ? best : (ALIASES[best] ?? fallback);
}
