import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type SharedownClient = Client<paths>;

export interface SharedownClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Service root, e.g. `http://127.0.0.1:8080` (no `/api` suffix). */
  baseUrl: string;
  /** API token `shd_<prefix>_<secret>` for the REST routes. */
  token?: string;
}

// openapi-fetch hands `unwrap` the Response alone; the route it answered is kept beside it, so that
// a service without that route can be told apart and named ("GET /api/v1/folders/{id}").
const answeredRoutes = new WeakMap<Response, string>();
const rememberRoute: Middleware = {
  onResponse({ request, schemaPath, response }) {
    answeredRoutes.set(response, `${request.method} ${schemaPath}`);
  },
};

/** A typed client for every route in the OpenAPI document (paths include their `/api/...` prefix). */
export function createSharedownClient(options: SharedownClientOptions): SharedownClient {
  const { baseUrl, token, headers, ...rest } = options;
  const client = createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  });
  client.use(rememberRoute);
  return client;
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
    /**
     * The route the service does not have at all (`GET /api/v1/folders`): a service older than this
     * client, or an address that is no Sharedown service.
     */
    readonly missingRoute: string | null = null,
    /** A 403 of a password sign-in whose password was right: the account's address must be proven first. */
    readonly emailUnverified = false,
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

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  twoFactorRequired?: unknown;
  emailUnverified?: unknown;
  field?: unknown;
  message?: unknown;
}

// What the service answers for a path it has no route for (every version so far); its other
// NOT_FOUND answers name what is missing.
const UNKNOWN_ROUTE_MESSAGE = '接口不存在';
// Fastify's own answer, from a service that does not wrap it in the envelope.
const FRAMEWORK_UNKNOWN_ROUTE = /^Route ([A-Z]+):(\S+?)(?:\?\S*)? not found$/;

/**
 * The route of a 404 that no route of the service gave: the service's unknown-route answer, or a
 * body that is not its envelope at all (a framework's or a proxy's page).
 */
function missingRouteOf(response: Response, body: ErrorBody): string | null {
  if (response.status !== 404) return null;
  if (body.code === 'NOT_FOUND' && body.error !== UNKNOWN_ROUTE_MESSAGE) return null;
  const remembered = answeredRoutes.get(response);
  if (remembered) return remembered;
  const framework = typeof body.message === 'string' ? FRAMEWORK_UNKNOWN_ROUTE.exec(body.message) : null;
  if (framework) return `${framework[1]} ${framework[2]}`;
  try {
    return new URL(response.url).pathname;
  } catch {
    return 'the requested route';
  }
}

/** Returns the data of a successful call, or throws SharedownApiError with the envelope's code. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (response.ok) return data as NonNullable<T>;
  const envelope = (error !== null && typeof error === 'object' ? error : {}) as ErrorBody;
  const retry = response.headers.get('retry-after');
  throw new SharedownApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : 'INTERNAL',
    typeof envelope.error === 'string' ? envelope.error : response.statusText,
    retry ? Number(retry) : null,
    envelope.twoFactorRequired === true,
    typeof envelope.field === 'string' ? envelope.field : null,
    missingRouteOf(response, envelope),
    envelope.emailUnverified === true,
  );
}
