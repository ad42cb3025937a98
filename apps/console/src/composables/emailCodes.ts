import { SharedownApiError } from '../api/client';

export const EMAIL_CODE = /^[0-9]{6}$/;

/** What a failed code step means for the form. */
export type CodeFailure = 'two-factor' | 'code' | 'other';

/**
 * 401 with `twoFactorRequired`: the e-mail code was right and the account asks for its second
 * factor. Any other 401, or a 409 (the code was used meanwhile): the code is no good.
 */
export function codeFailureOf(error: unknown): CodeFailure {
  if (!(error instanceof SharedownApiError)) return 'other';
  if (error.twoFactorRequired) return 'two-factor';
  return error.status === 401 || error.status === 409 ? 'code' : 'other';
}
