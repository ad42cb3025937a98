import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type SharedownClient = Client<paths>;

export interface SharedownClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Service root, e.g. `http://127.0.0.1:8080` (no `/api` suffix). */
  baseUrl: string;
  /** API token `shd_<prefix>_<secret>` for the REST routes. */
  token?: string;
}

/** A typed client for every route in the OpenAPI document (paths include their `/api/...` prefix). */
export function createSharedownClient(options: SharedownClientOptions): SharedownClient {
  const { baseUrl, token, headers, ...rest } = options;
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  });
}

/** An answer of the API outside 2xx, carrying the envelope's code and message. */
export class SharedownApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** A 401 of the sign-in whose password was right: the account asks for its second factor. */
    readonly twoFactorRequired = false,
    /** The request field a VALIDATION error is about, when the api named one. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'SharedownApiError';
  }
}

export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Returns the data of a successful call, or throws SharedownApiError with the envelope's code. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (response.ok) return data as NonNullable<T>;
  const envelope = (error ?? {}) as { error?: unknown; code?: unknown; twoFactorRequired?: unknown; field?: unknown };
  const retry = response.headers.get('retry-after');
  throw new SharedownApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : 'INTERNAL',
    typeof envelope.error === 'string' ? envelope.error : response.statusText,
    retry ? Number(retry) : null,
    envelope.twoFactorRequired === true,
    typeof envelope.field === 'string' ? envelope.field : null,
  );
}
