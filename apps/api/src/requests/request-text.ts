import { formatMessage, type CatalogOf, type LocaleTag } from '@sharedown/i18n';
import de from './i18n/de.js';
import en from './i18n/en.js';
import es from './i18n/es.js';
import fr from './i18n/fr.js';
import ja from './i18n/ja.js';
import zhCN from './i18n/zh-CN.js';

export type RequestMessages = CatalogOf<typeof zhCN>;

export const REQUEST_CATALOGS: Record<LocaleTag, RequestMessages> = { 'zh-CN': zhCN, en, ja, de, fr, es };

/** The document request pages' words in one language. */
export function requestText(locale: LocaleTag): RequestMessages {
  return REQUEST_CATALOGS[locale];
}

export { formatMessage };
