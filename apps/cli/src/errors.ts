import { networkErrorDetail, SharedownApiError } from '@sharedown/contract';
import { apiErrorText, SHARED_MESSAGES, type LocaleTag } from '@sharedown/i18n';

/** Process exit codes; documented in docs/cli.md. */
export const ExitCode = {
  OK: 0,
  API_ERROR: 1,
  USAGE: 2,
  NETWORK: 3,
  INVALID_CONTENT: 4,
} as const;

/** Wrong or missing arguments, options or configuration: the user must change the command. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where the service address came from, so that an unreachable one says what to change. */
export type UrlSource = 'env' | 'file';

const URL_SOURCE_HINTS: Record<UrlSource, string> = {
  env: ' (SHAREDOWN_URL)',
  file: ' (stored by "sharedown login"; SHAREDOWN_URL overrides it)',
};

/** The service could not be reached at all. */
export class NetworkError extends Error {
  constructor(
    readonly serviceUrl: string,
    readonly detail: string,
    readonly source?: UrlSource,
  ) {
    super(`cannot reach ${serviceUrl}${source ? URL_SOURCE_HINTS[source] : ''}: ${detail}`);
    this.name = 'NetworkError';
  }
}

export function networkErrorOf(error: unknown, serviceUrl: string, source?: UrlSource): NetworkError {
  return new NetworkError(serviceUrl, networkErrorDetail(error), source);
}

/** A route this client calls that the service lacks: the service is older than the client. */
export function missingRouteMessage(route: string): string {
  return `this service does not offer ${route}: it is older than this client (update the service, or use the client of its version)`;
}

export const READ_ONLY_HINT =
  'either this API token is read-only (scope "read"): every change (uploading, moving, sharing, editing, deleting, purging, marking read) needs a token with the "write" scope, created in the console; or the role of its creator in its workspace does not allow this ("sharedown workspace" shows it): a VIEWER changes nothing, and only an OWNER or ADMIN manages members and invitations';

export interface ErrorReport {
  exitCode: number;
  code: string;
  status: number | null;
  message: string;
  /** The request field a VALIDATION error is about. */
  field?: string;
  retryAfterSeconds?: number;
  /** When a rate-limited call may be repeated, as an ISO timestamp. */
  retryAt?: string;
}

/**
 * What a failed command reports. An api refusal is worded in the user's language from its code
 * (the envelope's text is Chinese, so Chinese users get it as the api wrote it).
 */
export function reportOf(error: unknown, now: Date = new Date(), locale: LocaleTag = 'en'): ErrorReport {
  if (error instanceof SharedownApiError && error.missingRoute) {
    return {
      exitCode: ExitCode.API_ERROR,
      code: 'NOT_FOUND',
      status: error.status,
      message: missingRouteMessage(error.missingRoute),
    };
  }
  if (error instanceof SharedownApiError) {
    const worded = locale === 'zh-CN' ? error.message : apiErrorText(SHARED_MESSAGES[locale], error);
    // The REST operations the CLI calls refuse a token for its scope, or for its creator's role in its workspace.
    const message = error.code === 'FORBIDDEN' ? `${worded} — ${READ_ONLY_HINT}` : worded;
    const report: ErrorReport = { exitCode: ExitCode.API_ERROR, code: error.code, status: error.status, message };
    if (error.field !== null) report.field = error.field;
    if (error.retryAfterSeconds !== null && Number.isFinite(error.retryAfterSeconds)) {
      report.retryAfterSeconds = error.retryAfterSeconds;
      report.retryAt = new Date(now.getTime() + error.retryAfterSeconds * 1000).toISOString();
    }
    return report;
  }
  if (error instanceof UsageError) return { exitCode: ExitCode.USAGE, code: 'USAGE', status: null, message: error.message };
  if (error instanceof NetworkError) {
    return { exitCode: ExitCode.NETWORK, code: 'UNAVAILABLE', status: null, message: error.message };
  }
  return {
    exitCode: ExitCode.API_ERROR,
    code: 'INTERNAL',
    status: null,
    message: error instanceof Error ? error.message : String(error),
  };
}
