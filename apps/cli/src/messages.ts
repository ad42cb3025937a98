import { formatMessage, type CatalogOf, type LocaleTag, type MessageParams } from '@sharedown/i18n';
import de from './messages/de.js';
import en from './messages/en.js';
import es from './messages/es.js';
import fr from './messages/fr.js';
import ja from './messages/ja.js';
import zhCN from './messages/zh-CN.js';

/** What the CLI itself prints for people, in each language (messages.spec.ts checks that they agree). */
export type CliMessages = CatalogOf<typeof en>;

export const CLI_MESSAGES: Record<LocaleTag, CliMessages> = { 'zh-CN': zhCN, en, ja, de, fr, es };

/** The words of one language, and a message of it with its values filled in (plurals the language's way). */
export interface Words {
  locale: LocaleTag;
  messages: CliMessages;
  format(template: string, params?: MessageParams): string;
}

export function wordsOf(locale: LocaleTag): Words {
  return { locale, messages: CLI_MESSAGES[locale], format: (template, params) => formatMessage(template, params, locale) };
}
