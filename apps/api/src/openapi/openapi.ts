import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { consoleOperationId, tokenOperationPrefix } from './operation-names.js';
import { collapseSingleRefAllOf, declarePublicRoutes } from './tidy-document.js';

type PathItem = OpenAPIObject['paths'][string];

/**
 * Builds the OpenAPI 3.1.0 document from the controllers' decorators. REST routes are
 * listed relative to the `/v1` server (as the contract states) and again under their
 * `/api/v1` prose path; console and viewer routes carry a path-level server of `/`.
 * Routes marked PublicRoute declare `security: []`, and Nest's one-member `allOf`s
 * become plain references (tidy-document.ts), so the document passes Redocly's lint.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Sharedown API')
    .setDescription(
      'Share single text documents (HTML, Markdown, plain text) with link policies. REST calls take ' +
        '`Authorization: Bearer shd_<prefix>_<secret>`; console routes take the session cookie. Every non-2xx ' +
        'answer is `{ error, code }`. While the database or Redis cannot be reached (a restart, an outage), any route ' +
        'may answer 503 with code `UNAVAILABLE` and a `Retry-After` header; the same request succeeds once it is back.',
    )
    .setVersion('1.0.0')
    .addServer('/v1', 'REST API (bearer token)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API token shd_<prefix>_<secret>' })
    .addCookieAuth('sharedown_session')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN of the instance' }, 'metricsToken')
    .build();
  const raw = collapseSingleRefAllOf(
    SwaggerModule.createDocument(app, config, {
      operationIdFactory: (controllerKey, methodKey) =>
        `${tokenOperationPrefix(controllerKey.replace(/Controller$/, ''))}_${methodKey}`,
    }),
  );
  const paths: Record<string, PathItem> = {};
  const rootServer = [{ url: '/', description: 'service root' }];
  const entries = Object.entries(declarePublicRoutes(raw.paths)).sort(([a], [b]) => a.localeCompare(b));
  // Operations written once and mounted for both the token API and the console (SessionOrBearerGuard):
  // each mount names its own authentication, and the console's mount its own operation id.
  const baseIdsUnder = (prefix: string) =>
    new Set(entries.filter(([path]) => path.startsWith(prefix)).flatMap(([, item]) => operationIdsOf(item).map(baseId)));
  const restIds = baseIdsUnder('/v1/');
  const consoleIds = new Set(
    entries.filter(([path]) => isConsoleMount(path)).flatMap(([, item]) => operationIdsOf(item).map(baseId)),
  );
  // A path may hold both kinds: `/api/console/files/{id}` reads the console's own file and renames the shared one.
  const shared = (id: string) => restIds.has(baseId(id)) && consoleIds.has(baseId(id));
  for (const [path, item] of entries) {
    if (path.startsWith('/v1/')) {
      paths[path.slice(3)] = mapOperations(item, shared, (operation) => ({ ...operation, security: BEARER }));
    } else if (isConsoleMount(path)) {
      paths[path] = {
        ...mapOperations(item, shared, (operation) => ({
          ...operation,
          operationId: consoleOperationId(baseId(operation.operationId)),
          security: SESSION,
          tags: [...(operation.tags ?? []), 'console'],
        })),
        servers: rootServer,
      };
    } else {
      const rest = mapOperations(item, shared, (operation) => ({ ...operation, security: BEARER }));
      paths[path] = { ...renameOperations(rest, '_apiV1'), servers: rootServer };
    }
  }
  return { ...raw, paths };
}

/** A path of the console's (the session's): anything but the token API's `/v1` and `/api/v1` (SessionOrBearerGuard). */
function isConsoleMount(path: string): boolean {
  return !path.startsWith('/v1/') && !path.startsWith('/api/v1/');
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
const BEARER = [{ bearer: [] }];
const SESSION = [{ cookie: [] }];

/** An operation id without the index Nest adds per mount of a controller (`Shares_create[1]`). */
function baseId(id: string): string {
  return id.replace(/\[\d+\]$/, '');
}

interface Operation {
  operationId: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
}

function operationIdsOf(item: PathItem): string[] {
  const record = item as Record<string, { operationId?: string } | undefined>;
  return METHODS.flatMap((method) => record[method]?.operationId ?? []);
}

/**
 * The operations of `item` that `shared` names (an operation mounted on both doors), as `change` makes
 * them: each mount names its own authentication, and the console's mount its own operation id and tag.
 */
function mapOperations(item: PathItem, shared: (id: string) => boolean, change: (operation: Operation) => Operation): PathItem {
  const copy: Record<string, unknown> = { ...item };
  for (const method of METHODS) {
    const operation = copy[method] as Operation | undefined;
    if (operation?.operationId && shared(operation.operationId)) copy[method] = change(operation);
  }
  return copy as PathItem;
}

function renameOperations(item: PathItem, suffix: string): PathItem {
  if (!suffix) return item;
  const copy: Record<string, unknown> = { ...item };
  for (const method of METHODS) {
    const operation = copy[method] as { operationId?: string } | undefined;
    if (operation?.operationId) copy[method] = { ...operation, operationId: `${operation.operationId}${suffix}` };
  }
  return copy as PathItem;
}
