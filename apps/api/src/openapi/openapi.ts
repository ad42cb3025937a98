import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
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
      operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
    }),
  );
  const paths: Record<string, PathItem> = {};
  const rootServer = [{ url: '/', description: 'service root' }];
  for (const [path, item] of Object.entries(declarePublicRoutes(raw.paths)).sort(([a], [b]) => a.localeCompare(b))) {
    if (path.startsWith('/v1/')) {
      paths[path.slice(3)] = item;
    } else {
      paths[path] = { ...renameOperations(item, path.startsWith('/api/v1/') ? '_apiV1' : ''), servers: rootServer };
    }
  }
  return { ...raw, paths };
}

function renameOperations(item: PathItem, suffix: string): PathItem {
  if (!suffix) return item;
  const copy: Record<string, unknown> = { ...item };
  for (const method of ['get', 'put', 'post', 'delete', 'patch', 'options', 'head']) {
    const operation = copy[method] as { operationId?: string } | undefined;
    if (operation?.operationId) copy[method] = { ...operation, operationId: `${operation.operationId}${suffix}` };
  }
  return copy as PathItem;
}
