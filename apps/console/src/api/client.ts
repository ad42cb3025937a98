import { createSharedownClient, SharedownApiError, unwrap, type SharedownClient } from '@sharedown/contract';

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

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Unwraps a typed call; every failure becomes a SharedownApiError with a code. */
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
    throw new SharedownApiError(0, NETWORK_ERROR, error instanceof Error ? error.message : String(error));
  }
}
