import { apiErrorText } from '@sharedown/i18n';
import { sharedMessagesOf, type Locale } from '../i18n/locales';
import { NETWORK_ERROR, SharedownApiError } from './client';

export type { Locale };

export function errorCode(error: unknown): string {
  return error instanceof SharedownApiError ? error.code : NETWORK_ERROR;
}

/**
 * A readable message in the console's language, from the envelope's code (and the field of a
 * VALIDATION error). The Chinese console shows the api's own words, which say more than the
 * code; anything that never reached the api reads as a network failure.
 */
export function errorMessage(error: unknown, locale: Locale): string {
  const messages = sharedMessagesOf(locale);
  if (!(error instanceof SharedownApiError)) return messages.apiErrors.NETWORK;
  if (locale === 'zh' && error.message && error.code !== NETWORK_ERROR) return error.message;
  return apiErrorText(messages, error);
}
