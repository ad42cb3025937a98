import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotFoundException } from '@nestjs/common';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The console's policy: its own scripts (plus the inline theme snippet of index.html, allowed by
 * its hash), its own API, never framed. Inline styles stay allowed: Vue binds them, and the
 * sandboxed Markdown preview (a srcdoc frame inherits this policy) carries its own stylesheet.
 * Authors' documents may show pictures from anywhere, as they do on the viewer.
 */
export function consoleCsp(html: string, renderOrigin: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src 'self' ${renderOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function sendNotFound(reply: FastifyReply): void {
  sendEnvelope(reply, toEnvelope(new NotFoundException()));
}

/**
 * Serves the built console at `/`: real files with their cache policy, and index.html for
 * any other GET navigation so the client-side router can resolve deep links. Files are looked
 * up per request, so rebuilding the console never leaves a running server pointing at bundles
 * that no longer exist.
 */
export async function registerConsoleStatic(
  fastify: FastifyInstance,
  renderOrigin: string,
  root = CONSOLE_DIST,
): Promise<boolean> {
  const indexPath = join(root, 'index.html');
  if (!existsSync(indexPath)) return false;

  // Hashed bundles; a missing one falls through to the JSON 404 instead of HTML with status 200.
  await fastify.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('cache-control', cacheControlFor('assets/'));
    },
  });
  // Top-level files copied from the console's public/ folder (icons, robots.txt).
  await fastify.register(fastifyStatic, {
    root,
    serve: true,
    wildcard: false,
    globIgnore: ['assets/**', 'index.html'],
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'no-cache');
    },
  });

  const sendIndex = async (reply: FastifyReply) => {
    let html: Buffer;
    try {
      html = await readFile(indexPath);
    } catch {
      return sendNotFound(reply);
    }
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('content-security-policy', consoleCsp(html.toString('utf8'), renderOrigin))
      .header('x-frame-options', 'DENY')
      .send(html);
  };
  fastify.get('/', (_request, reply) => sendIndex(reply));
  fastify.get('/*', (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (isServerPath(pathname)) return sendNotFound(reply);
    return sendIndex(reply);
  });
  return true;
}
