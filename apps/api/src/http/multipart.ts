import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyConfig, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';

/**
 * multipart/form-data without a plugin: a content-type parser that only marks the request and
 * leaves its body unread, and `multipartParts`, which a handler that takes uploads calls to stream
 * the parts through busboy. Nothing here runs for any other request: no hook, no listener, no
 * promise (share views pay nothing for uploads).
 */
const MULTIPART = Symbol('sharedown.multipart');

type MarkedRequest = FastifyRequest & { [MULTIPART]: boolean };

/** Accepts `multipart/form-data` bodies on every route; the handler decides whether to read them. */
export function acceptMultipart(fastify: FastifyInstance): void {
  fastify.decorateRequest(MULTIPART, false);
  fastify.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    (request as MarkedRequest)[MULTIPART] = true;
    done(null);
  });
}

/** Whether the request's body is multipart/form-data, still unread. */
export function isMultipart(request: FastifyRequest): boolean {
  return (request as MarkedRequest)[MULTIPART] === true;
}

export interface FieldPart {
  type: 'field';
  fieldname: string;
  /** The text, or (a field sent as `application/json`) the parsed value. */
  value: unknown;
  valueTruncated: boolean;
}

export interface FilePart {
  type: 'file';
  fieldname: string;
  filename: string;
  /** Must be read to its end (or resumed) before the next part arrives; `truncated` past `limits.fileSize`. */
  file: BusboyFileStream;
}

export type Part = FieldPart | FilePart;

export type MultipartOptions = Omit<BusboyConfig, 'headers'>;

/**
 * A parser failure, with the code and status Fastify's own multipart errors carry (FST_*), so the
 * error envelope and the upload reader answer them as before.
 */
export class MultipartError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = 'MultipartError';
  }
}

const partsLimit = () => new MultipartError('FST_PARTS_LIMIT', 'reach parts limit', 413);
const filesLimit = () => new MultipartError('FST_FILES_LIMIT', 'reach files limit', 413);
const fieldsLimit = () => new MultipartError('FST_FIELDS_LIMIT', 'reach fields limit', 413);
const fileTooLarge = () => new MultipartError('FST_REQ_FILE_TOO_LARGE', 'request file too large', 413);
const protoViolation = () => new MultipartError('FST_PROTO_VIOLATION', 'prototype property is not allowed as field name', 400);
const invalidJsonField = () =>
  new MultipartError('FST_INVALID_JSON_FIELD_ERROR', 'a request field is not a valid JSON as declared by its Content-Type', 406);
const prematureClose = () =>
  new MultipartError('FST_MP_PREMATURE_CLOSE', 'the request was closed before the multipart data was fully parsed', 400);

/**
 * The parts of a multipart request, in order, one at a time. A limit or a malformed body ends the
 * iteration with its error once the parts before it were handed over; a file part must be consumed
 * before the next part is asked for. An empty body is an empty form.
 */
export async function* multipartParts(request: FastifyRequest, options: MultipartOptions): AsyncGenerator<Part> {
  const next = partQueue(request.raw, options);
  for (let part = await next(); part !== null; part = await next()) yield part;
}

/** busboy's events as a queue of parts, ended by `null` or an error. */
function partQueue(request: IncomingMessage, options: MultipartOptions): () => Promise<Part | null> {
  const waiting: Array<Part | Error | null> = [];
  let taker: ((value: Part | Error | null) => void) | null = null;
  const hand = (value: Part | Error | null) => {
    if (taker) {
      const take = taker;
      taker = null;
      take(value);
    } else waiting.push(value);
  };

  let lastError: Error | null = null;
  let currentFile: BusboyFileStream | null = null;
  let sawData = false;
  let parser: BusboyInstance;
  try {
    parser = new Busboy({ ...options, headers: request.headers as BusboyConfig['headers'] });
  } catch (error) {
    // No boundary, no content type: a malformed request, answered once the handler asks.
    hand(error instanceof Error ? error : new Error(String(error)));
    return take();
  }

  const finish = (error?: Error | null, keepParsing = false) => {
    if (!keepParsing) {
      request.unpipe(parser);
      if ((error || request.aborted) && currentFile) {
        // A consumer still reading the file sees the failure instead of waiting for an end that never comes.
        currentFile.destroy(error ?? undefined);
        currentFile = null;
      }
    }
    hand(error ?? lastError ?? null);
  };
  // busboy holds the part it has just finished or opened when it raises a limit: that part is
  // handed over first, and the limit ends the iteration after it.
  const onLimit = (error: Error) => {
    lastError = error;
    process.nextTick(() => finish(error, true));
  };

  request.on('close', () => {
    // A close before the body's end: busboy will never finish.
    if (!request.readableEnded) finish(lastError ?? prematureClose());
  });
  request.on('error', (error) => finish(error));
  parser
    .on('field', (fieldname, value, _nameTruncated, valueTruncated, _encoding, mimeType) => {
      if (fieldname in Object.prototype) {
        lastError = protoViolation();
        return;
      }
      let parsed: unknown = value;
      if (mimeType.startsWith('application/json')) {
        // A truncated value can never be valid JSON.
        if (valueTruncated) {
          lastError = invalidJsonField();
          return;
        }
        try {
          parsed = secureJson.parse(value);
        } catch {
          lastError = invalidJsonField();
          return;
        }
      }
      hand({ type: 'field', fieldname, value: parsed, valueTruncated });
    })
    .on('file', (fieldname, file, filename) => {
      if (fieldname in Object.prototype) {
        file.resume();
        lastError = protoViolation();
        return;
      }
      // busboy reports a part cut short on the file stream; it must not go unheard.
      file.on('error', (error: Error) => {
        if (error.message?.includes('terminated early')) lastError = error;
      });
      // A file stream destroyed before its end stops busboy: the iteration ends here.
      file.on('close', () => {
        if (!file.readableEnded) finish();
      });
      file.on('limit', () => {
        lastError = fileTooLarge();
      });
      currentFile = file;
      hand({ type: 'file', fieldname, filename, file });
    })
    .on('partsLimit', () => onLimit(partsLimit()))
    .on('filesLimit', () => onLimit(filesLimit()))
    .on('fieldsLimit', () => onLimit(fieldsLimit()))
    .on('finish', () => finish())
    .on('close', () => finish())
    .on('error', (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      // An empty body is an empty form, not a truncated one.
      if (!sawData && failure.message === 'Unexpected end of multipart data') finish();
      else finish(failure);
    });
  request.once('data', () => {
    sawData = true;
  });
  request.pipe(parser);
  return take();

  function take(): () => Promise<Part | null> {
    return () =>
      new Promise((resolve, reject) => {
        const settle = (value: Part | Error | null) => (value instanceof Error ? reject(value) : resolve(value));
        if (waiting.length > 0) settle(waiting.shift()!);
        else taker = settle;
      });
  }
}
