import { exactList } from './exact-list.js';
import type { components } from './schema.js';

/** The kinds of document the service hosts; a file's kind follows from its name's extension. */
export type FileKind = components['schemas']['FileKind'];

export const FILE_KINDS = exactList<FileKind>()(['HTML', 'MARKDOWN', 'TEXT']);

/** The accepted upload extensions (lower case, with the dot) and the kind each one makes. */
export const KIND_OF_EXTENSION: Readonly<Record<string, FileKind>> = Object.freeze({
  '.html': 'HTML',
  '.htm': 'HTML',
  '.md': 'MARKDOWN',
  '.markdown': 'MARKDOWN',
  '.txt': 'TEXT',
  '.text': 'TEXT',
});

/** Every extension an upload may have; anything else (ZIP, media, executables) is refused. */
export const ACCEPTED_EXTENSIONS: readonly string[] = Object.freeze(Object.keys(KIND_OF_EXTENSION));

/** The extension a name of that kind gets when it has none. */
export const DEFAULT_EXTENSION: Readonly<Record<FileKind, string>> = Object.freeze({
  HTML: '.html',
  MARKDOWN: '.md',
  TEXT: '.txt',
});

/** The media type a document of that kind is sent with. */
export const MEDIA_TYPE: Readonly<Record<FileKind, string>> = Object.freeze({
  HTML: 'text/html; charset=utf-8',
  MARKDOWN: 'text/markdown; charset=utf-8',
  TEXT: 'text/plain; charset=utf-8',
});

/** The extension of a name, with its dot and lower-cased, or '' when it has none (a leading dot is no extension). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** The kind the service gives a file of this name, or null when it refuses the extension. */
export function kindOfName(name: string): FileKind | null {
  return KIND_OF_EXTENSION[extensionOf(name)] ?? null;
}
