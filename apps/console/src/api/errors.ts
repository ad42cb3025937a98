import { NETWORK_ERROR, SharedownApiError } from './client';

export type Locale = 'zh' | 'en';

/** English equivalents of the API's Chinese messages, keyed by the envelope's code. */
const english: Record<string, string> = {
  UNAUTHENTICATED: 'You are not signed in, or your session has expired.',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'It does not exist, or it is not yours.',
  VALIDATION: 'Some of the input is not valid.',
  RATE_LIMITED: 'Too many requests. Wait a moment and try again.',
  OVER_QUOTA: 'The file is too large or your storage quota is used up.',
  INFECTED: 'The antivirus scanner flagged this file as unsafe.',
  SLUG_TAKEN: 'This custom link name is already taken.',
  DUPLICATE: 'A file with this name already exists in the folder.',
  CONFLICT: 'This conflicts with the current state. Reload and try again.',
  INTERNAL: 'Something went wrong on the server. Try again later.',
  [NETWORK_ERROR]: 'The service could not be reached. Check your connection.',
};

const chineseFallback: Record<string, string> = {
  [NETWORK_ERROR]: '无法连接到服务，请检查网络连接。',
  INTERNAL: '服务器内部错误，请稍后再试。',
};

/** The field a VALIDATION message is about: the API's messages start with, or end on, its name. */
export function fieldOf(message: string): string | null {
  const named = /(?:不允许的字段：|^)([A-Za-z][A-Za-z0-9_.[\]]*)/.exec(message.trim());
  return named?.[1] ?? null;
}

export function errorCode(error: unknown): string {
  return error instanceof SharedownApiError ? error.code : NETWORK_ERROR;
}

/** A readable message for the current language: the API's own Chinese text, or English by code. */
export function errorMessage(error: unknown, locale: Locale): string {
  if (!(error instanceof SharedownApiError)) {
    return locale === 'zh' ? chineseFallback[NETWORK_ERROR]! : english[NETWORK_ERROR]!;
  }
  if (locale === 'zh')
    return error.message && error.code !== NETWORK_ERROR ? error.message : (chineseFallback[error.code] ?? error.message);
  const base = english[error.code] ?? english.INTERNAL!;
  if (error.code === 'VALIDATION') {
    const field = fieldOf(error.message);
    if (field) return `${base} Check “${field}”.`;
  }
  if (error.code === 'RATE_LIMITED' && error.retryAfterSeconds) {
    return `${base} (retry in ${error.retryAfterSeconds} s)`;
  }
  return base;
}
