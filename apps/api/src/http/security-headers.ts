import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Headers every answer carries: `nosniff`, and no framing by other sites. An answer that
 * brings its own Content-Security-Policy (the viewer's pages, the render frame, the console)
 * keeps it; it states its own `frame-ancestors`.
 */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  if (!reply.hasHeader('Content-Security-Policy')) {
    reply.header('Content-Security-Policy', "frame-ancestors 'none'");
    reply.header('X-Frame-Options', 'DENY');
  }
}

/** The same headers added to a plain header object (lower-case names) of an answer written without Fastify's onSend hooks. */
export function addSecurityHeadersTo(headers: OutgoingHttpHeaders): void {
  headers['x-content-type-options'] = 'nosniff';
  if (headers['content-security-policy'] === undefined) {
    headers['content-security-policy'] = "frame-ancestors 'none'";
    headers['x-frame-options'] = 'DENY';
  }
}

/** Adds the security headers once an answer is final; a reply sent in parts adds them itself (reply-parts.ts). */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    addSecurityHeaders(reply);
    done(null, payload);
  });
}
