import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/app-error.js';
import { sendEnvelope, toEnvelope } from '../common/error-envelope.filter.js';

/**
 * Fastify's `frameworkErrors`: what the router refuses before any hook or route runs, in the
 * same `{ error, code }` envelope as everything else.
 * - a path whose percent-encoding does not decode (`/api/v1/files/%ff`): 400 VALIDATION; under
 *   the viewer's `/s/` it is a link that names no share, 404 NOT_FOUND, as for any malformed link;
 * - a route parameter longer than the router's maxParamLength: 414 with code VALIDATION.
 * Replaces the adapter's default, whose only extra is Nest's own security hook, not used here.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
  if (error.code === 'FST_ERR_BAD_URL') {
    const viewer = (request.raw.url ?? '').startsWith('/s/');
    sendEnvelope(
      reply,
      viewer
        ? { status: 404, code: ErrorCode.NOT_FOUND, message: '链接不存在', headers: {} }
        : { status: 400, code: ErrorCode.VALIDATION, message: '请求地址包含无法解码的字符', headers: {} },
    );
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendEnvelope(reply, { status: 414, code: ErrorCode.VALIDATION, message: '请求地址中的参数过长', headers: {} });
    return;
  }
  sendEnvelope(reply, toEnvelope(error));
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: '请求头过大' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: '请求超时' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: '请求格式错误' };

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request (oversized headers,
 * malformed request line, timeout), so there is no request object, only the socket. Answers
 * with the envelope (code VALIDATION; 431 and 408 keep their status, anything else is 400)
 * and closes the connection, as Node's default does.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, reason, message } = CLIENT_ERRORS[error.code] ?? MALFORMED;
  const body = JSON.stringify({ error: message, code: ErrorCode.VALIDATION });
  // Node's own rule: never write into a response that has already started on this connection.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
