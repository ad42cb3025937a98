import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '@sharedown/contract/limits';
import { AppError, ErrorCode } from '../common/app-error.js';
import { jsonTooDeep } from '../common/json-depth.js';
import { isMultipart, multipartParts, type MultipartOptions } from '../http/multipart.js';

/** One uploaded document: its client-side name and its text exactly as sent. */
export interface UploadedDocument {
  filename: string;
  content: string;
  sizeBytes: number;
  sha256: string;
}

export interface MultipartUpload {
  document: UploadedDocument | null;
  fields: Record<string, string>;
}

const decoderOptions = { fatal: true, ignoreBOM: true } as const;

/**
 * Turns raw bytes into stored text. Uploads keep their bytes as sent (a BOM stays), so
 * sizeBytes and sha256 describe exactly what the owner uploaded.
 */
export function decodeDocument(filename: string, bytes: Buffer): UploadedDocument {
  let content: string;
  try {
    content = new TextDecoder('utf-8', decoderOptions).decode(bytes);
  } catch {
    throw AppError.validation('文件内容不是有效的 UTF-8 文本');
  }
  // PostgreSQL text cannot hold U+0000, and no text document needs it.
  if (content.includes('\u0000')) throw AppError.validation('文件内容包含 NUL 字符，不是文本文件');
  return { filename, content, sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * One document and a few short fields. Keep the client's name intact: busboy would otherwise strip
 * anything up to the last slash, and a name with a path separator must be refused rather than shortened.
 */
const UPLOAD_PARTS: MultipartOptions = {
  limits: { fileSize: LIMITS.uploadBytes, files: 1, fields: 10, fieldSize: 256 * 1024, parts: 12 },
  preservePath: true,
};

// The parser's limits carry 413 as Fastify's did; only the file size is about the quota.
const SHAPE_ERRORS: Record<string, string> = {
  FST_FILES_LIMIT: '一次只能上传一个文件',
  FST_PARTS_LIMIT: 'multipart 字段过多',
  FST_FIELDS_LIMIT: 'multipart 字段过多',
  FST_PROTO_VIOLATION: 'multipart 字段名无效',
  FST_INVALID_JSON_FIELD_ERROR: 'multipart 字段不是有效的 JSON',
};

function multipartError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (typeof code === 'string' && SHAPE_ERRORS[code]) return AppError.validation(SHAPE_ERRORS[code]);
  // Anything else raised while parsing the parts (busboy's "Boundary not found",
  // "Unexpected end of form", malformed headers, an aborted stream) is a malformed request.
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  return AppError.validation('multipart 请求格式错误');
}

/**
 * A field sent as `application/json`, which the parser has already parsed, back to its text
 * for the field's own parser. A value too deep to serialize again is refused like a deep body.
 */
function fieldText(name: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    throw jsonTooDeep(`${name} 字段`);
  }
}

function tooLarge(): AppError {
  return new AppError(ErrorCode.OVER_QUOTA, '文件超过 10 MB 上限');
}

/**
 * Reads a multipart request: the single `file` part (at most 10 MB, never more held in
 * memory; the part stream is cut by the parser's fileSize limit) and the named text fields.
 * Any other field is refused, as JSON bodies refuse unknown properties.
 */
export async function readMultipartUpload(request: FastifyRequest, allowedFields: readonly string[]): Promise<MultipartUpload> {
  if (!isMultipart(request)) throw AppError.validation('请求必须是 multipart/form-data，并包含 file 字段');
  const fields: Record<string, string> = {};
  let document: UploadedDocument | null = null;
  try {
    for await (const part of multipartParts(request, UPLOAD_PARTS)) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw AppError.validation(`不允许的文件字段：${part.fieldname}（文件字段名必须是 file）`, part.fieldname);
        }
        const chunks: Buffer[] = [];
        let received = 0;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          received += chunk.length;
          // The parser cuts the stream at the same fileSize; this counts what was decoded.
          if (received > LIMITS.uploadBytes) throw tooLarge();
          chunks.push(chunk);
        }
        if (part.file.truncated) throw tooLarge();
        document = decodeDocument(part.filename, Buffer.concat(chunks, received));
        continue;
      }
      if (part.fieldname === 'file') throw AppError.validation('file 字段必须是上传的文件（带文件名）', 'file');
      if (!allowedFields.includes(part.fieldname)) throw AppError.validation(`不允许的字段：${part.fieldname}`, part.fieldname);
      if (part.valueTruncated) throw AppError.validation(`字段 ${part.fieldname} 过长`, part.fieldname);
      if (part.fieldname in fields) throw AppError.validation(`字段 ${part.fieldname} 重复`, part.fieldname);
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : fieldText(part.fieldname, part.value);
    }
  } catch (error) {
    throw multipartError(error);
  }
  return { document, fields };
}
