import { DEFAULT_EXTENSION, extensionOf, KIND_OF_EXTENSION, type FileKind } from '@sharedown/contract';
import { LocalValidationError } from './api-errors.js';

/**
 * The service derives a document's kind from its file extension, so the stored name must carry
 * an extension of the requested kind: one is appended when missing, a contradicting one is refused.
 */
export function fileNameFor(name: string, kind: FileKind): string {
  const trimmed = name.trim();
  const extensionKind = KIND_OF_EXTENSION[extensionOf(trimmed)];
  if (!extensionKind) return `${trimmed}${DEFAULT_EXTENSION[kind]}`;
  if (extensionKind !== kind) {
    throw new LocalValidationError(`name "${trimmed}" has a ${extensionKind} extension but kind is ${kind}`);
  }
  return trimmed;
}
