import { ErrorCode, defaultMessageOf } from './error-code.js';

/** Optional members the envelope may carry beside `error` and `code` (documented in ErrorEnvelopeDto). */
export interface EnvelopeExtras {
  /** The password was right; sign-in needs the account's second factor (a TOTP or recovery code). */
  twoFactorRequired?: true;
  /** The password was right; the account's address must be proven (an e-mail code) before a password opens it. */
  emailUnverified?: true;
  /** On a VALIDATION error: the request field it is about (a dotted path for nested members), when there is one. */
  field?: string;
}

/** What an AppError may say besides its code and message. */
export interface AppErrorDetails {
  /** RATE_LIMITED, UNAVAILABLE: when a retry can succeed. */
  retryAfterSeconds?: number;
  /** Optional members of the envelope. */
  extras?: EnvelopeExtras;
}

/**
 * The one domain error of the service: a code from the contract, a message for people and,
 * for some codes, details. It knows nothing of HTTP: the global filter (error-envelope.filter.ts)
 * maps the code to a status (statusOf), `retryAfterSeconds` to a Retry-After header and writes the
 * `{ error, code }` envelope; the viewer's forms map it to a page.
 */
export class AppError extends Error {
  readonly retryAfterSeconds: number | undefined;
  readonly extras: EnvelopeExtras;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    details: AppErrorDetails = {},
  ) {
    super(message ?? defaultMessageOf(code));
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.extras = details.extras ?? {};
  }

  static validation(message: string, field?: string): AppError {
    return new AppError(ErrorCode.VALIDATION, message, field === undefined ? {} : { extras: { field } });
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, message);
  }
}

export { ErrorCode };
