import { ErrorCode, defaultMessageOf, statusOf } from './error-code.js';

/** Optional members the envelope may carry beside `error` and `code` (documented in ErrorEnvelopeDto). */
export interface EnvelopeExtras {
  /** The password was right; sign-in needs the account's second factor (a TOTP or recovery code). */
  twoFactorRequired?: true;
  /** On a VALIDATION error: the request field it is about (a dotted path for nested members), when there is one. */
  field?: string;
}

/**
 * The one domain error of the service. Services throw it with a code; the global
 * filter turns it into the `{ error, code }` envelope. `headers` carries extras such
 * as Retry-After for RATE_LIMITED; `extras` adds optional members to the envelope.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
    readonly extras: EnvelopeExtras = {},
  ) {
    super(message ?? defaultMessageOf(code));
    this.status = statusOf(code);
  }

  static validation(message: string, field?: string): AppError {
    return new AppError(ErrorCode.VALIDATION, message, {}, field === undefined ? {} : { field });
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, message);
  }
}

export { ErrorCode };
