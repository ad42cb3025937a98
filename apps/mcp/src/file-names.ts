import { LocalValidationError } from './api-errors.js';
import type { Kind } from './schemas.js';

const KIND_OF_EXTENSION: Record<string, Kind> = {
  '.html': 'HTML',
  '.htm': 'HTML',
  '.md': 'MARKDOWN',
  '.markdown': 'MARKDOWN',
  '.txt': 'TEXT',
  '.text': 'TEXT',
};

const DEFAULT_EXTENSION: Record<Kind, string> = { HTML: '.html', MARKDOWN: '.md', TEXT: '.txt' };

export const MEDIA_TYPE: Record<Kind, string> = {
  HTML: 'text/html; charset=utf-8',
  MARKDOWN: 'text/markdown; charset=utf-8',
  TEXT: 'text/plain; charset=utf-8',
};

/**
 * The service derives a document's kind from its file extension, so the stored name must carry
 * an extension of the requested kind: one is appended when missing, a contradicting one is refused.
 */
export function fileNameFor(name: string, kind: Kind): string {
  const trimmed = name.trim();
  const dot = trimmed.lastIndexOf('.');
  const extension = dot > 0 ? trimmed.slice(dot).toLowerCase() : '';
  const extensionKind = KIND_OF_EXTENSION[extension];
  if (!extensionKind) return `${trimmed}${DEFAULT_EXTENSION[kind]}`;
  if (extensionKind !== kind) {
    throw new LocalValidationError(`name "${trimmed}" has a ${extensionKind} extension but kind is ${kind}`);
  }
  return trimmed;
}
