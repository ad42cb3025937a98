import type { Schemas } from '@sharedown/contract';
import type { Words } from './messages.js';
import { formatBytes, formatDate, type Output } from './output.js';

export type RequestView = Schemas['RequestDto'];
export type RequestUploadView = Schemas['RequestUploadDto'];

/** A word of a catalog table by the api's code; the code itself for one this version does not know. */
function wordOf(table: Readonly<Record<string, string>>, code: string): string {
  return table[code] ?? code;
}

function stateLabel(out: Output, words: Words, state: string): string {
  const word = wordOf(words.messages.requests.states, state);
  return state === 'OPEN' ? out.color.green(word) : out.color.dim(word);
}

function reviewLabel(out: Output, words: Words, review: string): string {
  const word = wordOf(words.messages.requests.reviews, review);
  if (review === 'ACCEPTED') return out.color.green(word);
  if (review === 'REJECTED') return out.color.dim(word);
  return out.color.yellow(word);
}

function scanWord(out: Output, words: Words, status: string | null): string {
  const { scans } = words.messages.requests;
  if (status === null) return out.color.dim(scans.purged);
  const word = wordOf(scans, status);
  if (status === 'CLEAN') return out.color.green(word);
  if (status === 'INFECTED') return out.color.red(word);
  if (status === 'SCAN_ERROR') return out.color.yellow(word);
  return out.color.dim(word);
}

function slots(words: Words, request: RequestView): string {
  return words.format(words.messages.requests.uploadCount, { count: request.uploadCount, max: request.maxUploads });
}

export function printRequestTable(out: Output, words: Words, requests: RequestView[]): void {
  const { columns, values } = words.messages.requests;
  out.table(
    [columns.id, columns.title, columns.state, columns.uploads, columns.expires, columns.created],
    requests.map((request) => [
      request.id,
      request.title,
      stateLabel(out, words, request.state),
      slots(words, request),
      formatDate(request.expiresAt) ?? values.never,
      formatDate(request.createdAt) ?? '',
    ]),
  );
}

/** One request as key/value lines, its link first among its settings. */
export function printRequest(out: Output, words: Words, request: RequestView): void {
  const { fields, values } = words.messages.requests;
  out.fields([
    [fields.id, request.id],
    [fields.link, request.url],
    [fields.title, request.title],
    [fields.state, stateLabel(out, words, request.state)],
    [fields.uploads, slots(words, request)],
    [fields.perUpload, `${formatBytes(request.maxBytes)} (${request.maxBytes} B)`],
    [fields.expires, formatDate(request.expiresAt) ?? values.never],
    [fields.password, request.hasPassword ? values.yes : values.no],
    [fields.allowlist, request.emailAllowlist?.length ? request.emailAllowlist.join(', ') : values.anyone],
    [fields.notify, request.notify],
    [fields.folder, request.folderId],
    [fields.instructions, request.instructions ? request.instructions.replace(/\s+/g, ' ').slice(0, 200) : undefined],
    [fields.created, formatDate(request.createdAt)],
    [fields.closed, request.closedAt ? formatDate(request.closedAt) : undefined],
  ]);
}

export function printUploadTable(out: Output, words: Words, uploads: RequestUploadView[]): void {
  const { columns } = words.messages.requests;
  out.table(
    [columns.id, columns.file, columns.size, columns.scan, columns.review, columns.uploader, columns.message, columns.at],
    uploads.map((upload) => [
      upload.id,
      upload.fileName,
      formatBytes(upload.sizeBytes),
      scanWord(out, words, upload.scanStatus),
      reviewLabel(out, words, upload.review),
      upload.uploaderEmail ? `${upload.uploaderName} <${upload.uploaderEmail}>` : upload.uploaderName,
      upload.message.replace(/\s+/g, ' ').slice(0, 60),
      formatDate(upload.at) ?? upload.at,
    ]),
  );
}

/** The line `requests accept` / `requests reject` prints. */
export function reviewLine(words: Words, upload: RequestUploadView): string {
  const { requests } = words.messages;
  const template = upload.review === 'REJECTED' ? requests.rejectedLine : requests.acceptedLine;
  return words.format(template, { file: upload.fileName, id: upload.id });
}

/** The line `requests close` prints. */
export function closedLine(words: Words, request: RequestView): string {
  return words.format(words.messages.requests.closedLine, {
    title: request.title,
    id: request.id,
    count: request.uploadCount,
  });
}
