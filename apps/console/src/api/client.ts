import {
  createSharedownClient,
  isNetworkError,
  SharedownApiError,
  unwrap,
  type FetchResult,
  type SharedownClient,
} from '@sharedown/contract';

export { SharedownApiError };

/** Code used for failures that never reached the API (offline, DNS, aborted). */
export const NETWORK_ERROR = 'NETWORK';

type Listener = (error: SharedownApiError) => void;
const unauthenticatedListeners = new Set<Listener>();

/** Lets the session store react to an expired session wherever the call came from. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

let client: SharedownClient | undefined;

/**
 * The console talks to its own origin with the session cookie; openapi-fetch sends it
 * because requests stay same-origin. Created lazily so tests can swap `fetch` first.
 */
export function api(): SharedownClient {
  client ??= createSharedownClient({ baseUrl: window.location.origin });
  return client;
}

export function resetApiClient(): void {
  client = undefined;
}

/** Unwraps a typed call; every failure becomes a SharedownApiError with a code (NETWORK when nothing answered). */
export async function call<T>(request: Promise<FetchResult<T>>, options: { quiet401?: boolean } = {}): Promise<NonNullable<T>> {
  try {
    return await unwrap(request);
  } catch (error) {
    if (error instanceof SharedownApiError) {
      if (error.status === 401 && !options.quiet401) {
        for (const listener of unauthenticatedListeners) listener(error);
      }
      throw error;
    }
    if (isNetworkError(error))
      throw new SharedownApiError(0, NETWORK_ERROR, error instanceof Error ? error.message : String(error));
    // Anything else (an answer that is not the JSON it claims to be) is the server's fault, not the network's;
    // without a message of the server's the page shows its own text for INTERNAL.
    throw new SharedownApiError(0, 'INTERNAL', '');
  }
}
