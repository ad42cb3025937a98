import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ErrorCode, type EnvelopeExtras } from './app-error.js';
import { appErrorFromDatabase, isUnavailable } from './database-errors.js';
import { defaultMessageOf, statusOf } from './error-code.js';
import { redactUrl } from './redact.js';

interface Envelope {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  extras?: EnvelopeExtras;
}

/** Maps framework errors (Nest, Fastify body parsing, limits) onto the contract's codes. */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return ErrorCode.UNAUTHENTICATED;
  if (status === 403) return ErrorCode.FORBIDDEN;
  if (status === 404 || status === 405) return ErrorCode.NOT_FOUND;
  if (status === 409) return ErrorCode.CONFLICT;
  if (status === 413) return ErrorCode.OVER_QUOTA;
  if (status === 429) return ErrorCode.RATE_LIMITED;
  if (status >= 400 && status < 500) return ErrorCode.VALIDATION;
  return ErrorCode.INTERNAL;
}

const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求体不是有效的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求体为空，但声明为 JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求体过大',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容长度无效',
  FST_INVALID_MULTIPART_CONTENT_TYPE: '请求不是 multipart/form-data',
  FST_REQ_FILE_TOO_LARGE: '文件超过 10 MB 上限',
  FST_PARTS_LIMIT: 'multipart 字段过多',
  FST_FILES_LIMIT: '一次只能上传一个文件',
  FST_FIELDS_LIMIT: 'multipart 字段过多',
};

/** The Retry-After header of a RATE_LIMITED or UNAVAILABLE error (whole seconds), or none. */
export function retryAfterHeader(error: AppError): Record<string, string> {
  return error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
}

export function toEnvelope(exception: unknown): Envelope {
  if (exception instanceof AppError) {
    return {
      status: statusOf(exception.code),
      code: exception.code,
      message: exception.message,
      headers: retryAfterHeader(exception),
      extras: exception.extras,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeForStatus(status);
    const message = status === 404 ? '接口不存在' : defaultMessageOf(code);
    return { status: statusOf(code), code, message, headers: {} };
  }
  const database = appErrorFromDatabase(exception);
  if (database) {
    return {
      status: statusOf(database.code),
      code: database.code,
      message: database.message,
      headers: retryAfterHeader(database),
    };
  }
  const candidate = exception as { statusCode?: unknown; code?: unknown } | null;
  if (candidate && typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    const code = codeForStatus(candidate.statusCode);
    const known = typeof candidate.code === 'string' ? fastifyMessages[candidate.code] : undefined;
    return { status: statusOf(code), code, message: known ?? defaultMessageOf(code), headers: {} };
  }
  if (exception instanceof SyntaxError) {
    return { status: 400, code: ErrorCode.VALIDATION, message: '请求体不是有效的 JSON', headers: {} };
  }
  return { status: 500, code: ErrorCode.INTERNAL, message: defaultMessageOf(ErrorCode.INTERNAL), headers: {} };
}

/** The single place where a failure becomes `{ error, code }`. Internals never reach the body. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    answerException(exception, context.getRequest<FastifyRequest>(), context.getResponse<FastifyReply>(), this.logger);
  }
}

/** The filter's answer, for routes served without Nest's pipeline: the envelope, and a log line for a 5xx. */
export function answerException(
  exception: unknown,
  request: FastifyRequest | undefined,
  reply: FastifyReply,
  logger: Logger,
): void {
  const envelope = toEnvelope(exception);
  if (envelope.status >= 500) {
    logger.error(
      `request ${request?.id ?? '-'} ${request?.method ?? ''} ${redactUrl(request?.url ?? '')} failed: ${failureText(exception)}`,
    );
  }
  sendEnvelope(reply, envelope);
}

/**
 * What a log line says of a failed request: the stack of a fault, only the message of a backing
 * service being down (thousands of requests fail the same way during an outage).
 */
export function failureText(exception: unknown): string {
  if (!(exception instanceof Error)) return String(exception);
  return isUnavailable(exception) ? exception.message : (exception.stack ?? exception.message);
}

export function sendEnvelope(reply: FastifyReply, envelope: Envelope): void {
  if (reply.sent) return;
  for (const [name, value] of Object.entries(envelope.headers)) reply.header(name, value);
  reply
    .status(envelope.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send({ error: envelope.message, code: envelope.code, ...envelope.extras });
}
