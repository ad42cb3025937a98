import { ErrorCode, defaultMessageOf, statusOf } from './error-code.js';

/**
 * The one domain error of the service. Services throw it with a code; the global
 * filter turns it into the `{ error, code }` envelope. `headers` carries extras such
 * as Retry-After for RATE_LIMITED.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? defaultMessageOf(code));
    this.status = statusOf(code);
  }

  static validation(message: string): AppError {
    return new AppError(ErrorCode.VALIDATION, message);
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, message);
  }
}

export { ErrorCode };
