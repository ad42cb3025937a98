import type { OpenAPIObject } from '@nestjs/swagger';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTE_EXTENSION } from './public-route.decorator.js';
import { collapseSingleRefAllOf, declarePublicRoutes } from './tidy-document.js';

describe(collapseSingleRefAllOf.name, () => {
  it('turns a one-member allOf of a reference into the reference, keeping its siblings', () => {
    const sut = collapseSingleRefAllOf({
      properties: {
        kind: { allOf: [{ $ref: '#/components/schemas/FileKind' }] },
        share: { description: 'present when sent', allOf: [{ $ref: '#/components/schemas/ShareDto' }] },
      },
    });
    expect(sut).toEqual({
      properties: {
        kind: { $ref: '#/components/schemas/FileKind' },
        share: { $ref: '#/components/schemas/ShareDto', description: 'present when sent' },
      },
    });
  });

  it('finds them at any depth, in arrays too', () => {
    const nested = { items: [{ properties: { a: { allOf: [{ $ref: '#/x' }] } } }] };
    expect(collapseSingleRefAllOf(nested)).toEqual({ items: [{ properties: { a: { $ref: '#/x' } } }] });
  });

  it('leaves real compositions alone', () => {
    const two = { allOf: [{ $ref: '#/a' }, { $ref: '#/b' }] };
    const inline = { allOf: [{ type: 'string', minLength: 1 }] };
    expect(collapseSingleRefAllOf(two)).toEqual(two);
    expect(collapseSingleRefAllOf(inline)).toEqual(inline);
  });
});

describe(declarePublicRoutes.name, () => {
  const paths = (operation: object) => ({ '/healthz': { get: operation } }) as unknown as OpenAPIObject['paths'];

  it('gives a route marked public an empty security list and drops the mark', () => {
    expect(declarePublicRoutes(paths({ summary: 'health', [PUBLIC_ROUTE_EXTENSION]: true }))).toEqual(
      paths({ summary: 'health', security: [] }),
    );
  });

  it('leaves unmarked routes as they are, declared or not', () => {
    const declared = paths({ summary: 'me', security: [{ bearer: [] }] });
    const undeclared = paths({ summary: 'forgot' });
    expect(declarePublicRoutes(declared)).toEqual(declared);
    expect(declarePublicRoutes(undeclared)).toEqual(undeclared);
  });

  it('refuses a route that is marked public and declares credentials', () => {
    expect(() => declarePublicRoutes(paths({ security: [{ cookie: [] }], [PUBLIC_ROUTE_EXTENSION]: true }))).toThrow(
      /GET \/healthz is marked public/,
    );
  });
});
