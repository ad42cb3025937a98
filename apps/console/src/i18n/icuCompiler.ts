import { formatMessage, parseMessage } from '@sharedown/i18n';
import type { MessageCompiler } from 'vue-i18n';
import { intlTag } from './locales';

/**
 * Reads the console's messages as ICU MessageFormat with the same formatter the viewer and the CLI
 * use, so `{count, plural, one {…} other {…}}` means the same thing everywhere.
 */
export const icuCompiler: MessageCompiler = (message, { locale, key, onError }) => {
  if (typeof message !== 'string') {
    onError?.(new Error(`message ${key} is not text`) as never);
    return () => key;
  }
  parseMessage(message);
  const tag = intlTag(locale);
  return (context: { values?: unknown }) =>
    formatMessage(message, (context.values ?? {}) as Record<string, string | number>, tag);
};
