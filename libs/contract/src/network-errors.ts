// What fetch rejects with when no HTTP answer arrived: Node's undici says "fetch failed" with the
// socket error as its cause; browsers say it in their own words and give no cause.
const BROWSER_MESSAGES = new Set([
  'Failed to fetch', // Chromium
  'NetworkError when attempting to fetch resource.', // Firefox
  'Load failed', // Safari
  'The network connection was lost.', // Safari
  'The Internet connection appears to be offline.', // Safari
]);

/** Whether a rejected call never reached the service (refused, reset, DNS, offline, aborted, timed out). */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) {
    return error.message === 'fetch failed' || error.cause !== undefined || BROWSER_MESSAGES.has(error.message);
  }
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** The socket error behind a network error, e.g. `ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9`. */
export function networkErrorDetail(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' && !detail.includes(code) ? `${code} ${detail}` : detail;
}
