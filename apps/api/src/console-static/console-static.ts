import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotFoundException } from '@nestjs/common';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope, toEnvelope } from '../common/error-envelope.filter.js';

/** Where `pnpm --filter @sharedown/console build` writes the SPA, relative to the compiled api. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** Prefixes owned by the server; an unknown path below them is an API 404, never the SPA. */
const SERVER_PREFIXES = ['/api', '/v1', '/s', '/healthz'];

export function isServerPath(pathname: string): boolean {
  return SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Vite fingerprints every file under `assets/`, so those may be cached for a year; anything
 * else (index.html above all) must be revalidated or a deploy would strand users on old bundles.
 */
export function cacheControlFor(relativePath: string): string {
  const normalized = relativePath.replace(/\\/g, '/').replace(/^\/+/, '');
  if (normalized.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

function sendNotFound(reply: FastifyReply): void {
  sendEnvelope(reply, toEnvelope(new NotFoundException()));
}

/**
 * Serves the built console at `/`: real files with their cache policy, and index.html for
 * any other GET navigation so the client-side router can resolve deep links.
 */
export async function registerConsoleStatic(fastify: FastifyInstance, root = CONSOLE_DIST): Promise<boolean> {
  const indexPath = join(root, 'index.html');
  if (!existsSync(indexPath)) return false;
  const indexHtml = readFileSync(indexPath);

  await fastify.register(fastifyStatic, {
    root,
    serve: true,
    // Routes per existing file, so the SPA fallback below stays the only wildcard.
    wildcard: false,
    index: false,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', cacheControlFor(path.slice(root.length)));
    },
  });

  const sendIndex = (_request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(indexHtml);
  };
  fastify.get('/', sendIndex);
  fastify.get('/*', (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A missing bundle must fail loudly rather than come back as HTML with status 200.
    if (isServerPath(pathname) || pathname.startsWith('/assets/')) return sendNotFound(reply);
    sendIndex(request, reply);
  });
  return true;
}
