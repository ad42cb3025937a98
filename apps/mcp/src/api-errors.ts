import { isNetworkError, networkErrorDetail, SharedownApiError } from '@sharedown/contract';

/** What a failed tool call returns, for the service's errors and for our own. */
export interface ToolErrorBody {
  code: string;
  status: number;
  message: string;
}

export const READ_ONLY_HINT =
  'Either this API token is read-only (scope "read"): uploading, moving, deleting, restoring, purging, creating folders, making, changing or revoking share links, and creating or closing document requests or reviewing their uploads need a token with the "write" scope, created in the console. Or the role of its creator in its workspace does not allow this (service_workspace shows the role): a VIEWER changes nothing, and only an OWNER or ADMIN manages members and invitations (only an OWNER manages owners).';

/** The service could not be reached; there is no HTTP answer, so the status says "unavailable". */
export const UNAVAILABLE_STATUS = 503;

export function toErrorBody(error: unknown, serviceUrl: string): ToolErrorBody {
  if (error instanceof SharedownApiError && error.missingRoute) {
    return {
      code: 'NOT_FOUND',
      status: error.status,
      message: `This Sharedown service does not offer ${error.missingRoute}: it is older than this tool server. Update the service, or use the sharedown-mcp of its version.`,
    };
  }
  if (error instanceof SharedownApiError) {
    const retry =
      error.retryAfterSeconds !== null && Number.isFinite(error.retryAfterSeconds)
        ? ` (retry after ${error.retryAfterSeconds} s)`
        : '';
    // The REST operations the tools call refuse a token for its scope, or for its creator's role in its workspace.
    const hint = error.code === 'FORBIDDEN' ? ` ${READ_ONLY_HINT}` : '';
    return { code: error.code, status: error.status, message: `${error.message}${retry}${hint}` };
  }
  if (error instanceof LocalValidationError) {
    return { code: 'VALIDATION', status: 400, message: error.message };
  }
  if (isNetworkError(error)) {
    return {
      code: 'UNAVAILABLE',
      status: UNAVAILABLE_STATUS,
      message: `Cannot reach the Sharedown service at ${serviceUrl} (SHAREDOWN_URL): ${networkErrorDetail(error)}`,
    };
  }
  return { code: 'INTERNAL', status: 500, message: error instanceof Error ? error.message : String(error) };
}

/** Arguments that pass the input schema but contradict each other; reported like the service's VALIDATION. */
export class LocalValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalValidationError';
  }
}
