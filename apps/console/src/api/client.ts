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

/** The header naming the workspace a console call acts in; none (or the account's own id) is the personal one. */
export const WORKSPACE_HEADER = 'x-sharedown-workspace';
/** Where a tab keeps its workspace: sessionStorage, so two tabs in two workspaces never act in each other's. */
export const WORKSPACE_STORAGE_KEY = 'sharedown.workspace';
/** The routes that act in a workspace (the api's list); sign-in, the account and administration are the account's own. */
const WORKSPACE_SCOPED = ['/api/console/', '/api/tokens', '/api/webhooks', '/api/notifications', '/api/audit'];

/** The shared workspace this tab acts in, or null for the personal one. */
export function tabWorkspace(): string | null {
  try {
    return sessionStorage.getItem(WORKSPACE_STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

/** Chooses this tab's workspace (null: the personal one); read at every call, so it holds from the next one. */
/** A download link of the console in this tab's workspace: links cannot send the header, so the query names it. */
export function inTabWorkspace(path: string): string {
  const workspace = tabWorkspace();
  if (!workspace) return path;
  return `${path}${path.includes('?') ? '&' : '?'}workspace=${encodeURIComponent(workspace)}`;
}

export function setTabWorkspace(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(WORKSPACE_STORAGE_KEY, id);
    else sessionStorage.removeItem(WORKSPACE_STORAGE_KEY);
  } catch {
    // Storage disabled: the tab stays in its personal workspace.
  }
}

type Middleware = Parameters<SharedownClient['use']>[0];
const workspaceHeader: Middleware = {
  onRequest({ request }) {
    const workspace = tabWorkspace();
    if (!workspace) return undefined;
    const path = new URL(request.url).pathname;
    if (!WORKSPACE_SCOPED.some((prefix) => path.startsWith(prefix))) return undefined;
    request.headers.set(WORKSPACE_HEADER, workspace);
    return request;
  },
};

/**
 * The console talks to its own origin with the session cookie; openapi-fetch sends it
 * because requests stay same-origin. Created lazily so tests can swap `fetch` first.
 * Calls of workspace-scoped routes name the tab's workspace.
 */
export function api(): SharedownClient {
  if (!client) {
    client = createSharedownClient({ baseUrl: window.location.origin });
    client.use(workspaceHeader);
  }
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
