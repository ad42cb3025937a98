import type { OpenAPIObject } from '@nestjs/swagger';
import { PUBLIC_ROUTE_EXTENSION } from './public-route.decorator.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `{ description, allOf: [{ $ref }] }`, which Nest writes for a described or named property of a
 * schema type, becomes `{ $ref, description }`: OpenAPI 3.1 allows siblings beside `$ref`, and
 * generators and linters read a plain reference better than a composition of one.
 */
export function collapseSingleRefAllOf<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => collapseSingleRefAllOf(item)) as T;
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) copy[key] = collapseSingleRefAllOf(value);
  const allOf = copy.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && Object.keys(allOf[0]).join() === '$ref') {
    const { allOf: _single, ...siblings } = copy;
    return { $ref: allOf[0].$ref, ...siblings } as T;
  }
  return copy as T;
}

/** Operations marked with PublicRoute declare `security: []`: no credentials needed. */
export function declarePublicRoutes(paths: OpenAPIObject['paths']): OpenAPIObject['paths'] {
  const result: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(paths)) {
    const copy: JsonObject = { ...item };
    for (const method of METHODS) {
      const operation = copy[method];
      if (!isObject(operation) || operation[PUBLIC_ROUTE_EXTENSION] !== true) continue;
      const { [PUBLIC_ROUTE_EXTENSION]: _mark, ...rest } = operation;
      if (Array.isArray(rest.security) && rest.security.length) {
        throw new Error(`${method.toUpperCase()} ${path} is marked public but also declares ${JSON.stringify(rest.security)}`);
      }
      copy[method] = { ...rest, security: [] };
    }
    result[path] = copy as OpenAPIObject['paths'][string];
  }
  return result;
}
