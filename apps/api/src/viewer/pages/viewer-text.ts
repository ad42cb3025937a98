import { formatMessage, type CatalogOf, type LocaleTag } from '@sharedown/i18n';
import de from './i18n/de.js';
import en from './i18n/en.js';
import es from './i18n/es.js';
import fr from './i18n/fr.js';
import ja from './i18n/ja.js';
import zhCN from './i18n/zh-CN.js';

export type ViewerMessages = CatalogOf<typeof zhCN>;

export const VIEWER_CATALOGS: Record<LocaleTag, ViewerMessages> = { 'zh-CN': zhCN, en, ja, de, fr, es };

/** The viewer's words in one language, with the numbers and durations written the way it writes them. */
export class ViewerText {
  readonly messages: ViewerMessages;

  constructor(readonly locale: LocaleTag) {
    this.messages = VIEWER_CATALOGS[locale];
  }

  /** Fills a message; its plural choices follow this language's rules. */
  format(template: string, params: Readonly<Record<string, string | number>> = {}): string {
    return formatMessage(template, params, this.locale);
  }

  /** "3 minutes", "3 Minuten", "3 分钟" … */
  minutes(count: number): string {
    return new Intl.NumberFormat(this.locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(count);
  }
}
