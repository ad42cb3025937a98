import { useI18n } from 'vue-i18n';
import { errorMessage, type Locale } from '../api/errors';

/** `describe(error)` gives the message for the UI language. */
export function useApiError() {
  const { locale } = useI18n();
  return { describe: (error: unknown) => errorMessage(error, locale.value as Locale) };
}
