import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { addSecurityHeadersTo } from './security-headers.js';

/**
 * Sends a body made of several buffers as they are, without joining them into one: a page whose
 * middle is a large buffer shared by every answer (a cached document) costs only its small
 * per-answer parts, not a fresh copy of the whole page each time. For an answer with a body (not
 * HEAD, 204 or 304), whose status and headers are set.
 *
 * Fastify sends a single string or Buffer, or a stream chunk by chunk; so the reply is hijacked
 * and written here the way Fastify would write it: the status and headers the reply holds, then
 * the body under a Content-Length (never chunked), all corked into one writev. A hijacked reply
 * skips the onSend hooks, so the headers they add must be on the reply or in `headers` (lower-case
 * names) before this is called: the security headers are added here as their hook does; cookies
 * must already be a Set-Cookie header (reply.setCookie only writes them in an onSend hook).
 * onResponse hooks (metrics, the request log) still run: Fastify listens for the raw response's
 * finish, hijacked or not.
 * Nothing is kept after the write: the parts belong to the socket until they are written.
 */
export function sendParts(reply: FastifyReply, parts: readonly Buffer[], headers: Readonly<OutgoingHttpHeaders> = {}): void {
  let length = 0;
  for (const part of parts) length += part.length;
  // The reply's own headers (those its hooks set), then the answer's, in one object: no
  // reply.header() per header, and no copy of them but the one Node writes from.
  const all: OutgoingHttpHeaders = Object.assign(reply.getHeaders(), headers);
  addSecurityHeadersTo(all);
  // Last, where Fastify puts it once the onSend hooks are done.
  all['content-length'] = String(length);
  const raw = reply.raw;
  // Before the hijack: a header Node refuses throws while Fastify can still answer the error.
  raw.writeHead(reply.statusCode, all);
  reply.hijack();
  raw.cork();
  for (const part of parts) raw.write(part);
  raw.end();
  raw.uncork();
}
