import { extname } from 'node:path';
import type { CommandContext } from './context.js';
import { UsageError } from './errors.js';
import { readInput, requireName } from './input.js';
import type { Session } from './session.js';
import type { ShareInput } from './share-options.js';
import { uploadProgress } from './progress.js';
import { uploadFile } from './upload.js';

export type Kind = 'HTML' | 'MARKDOWN' | 'TEXT';

const KIND_OF_EXTENSION: Record<string, Kind> = {
  '.html': 'HTML',
  '.htm': 'HTML',
  '.md': 'MARKDOWN',
  '.markdown': 'MARKDOWN',
  '.txt': 'TEXT',
  '.text': 'TEXT',
};

const MEDIA_TYPE: Record<Kind, string> = { HTML: 'text/html', MARKDOWN: 'text/markdown', TEXT: 'text/plain' };

export function kindOfName(name: string): Kind | undefined {
  return KIND_OF_EXTENSION[extname(name).toLowerCase()];
}

export function parseKind(value: string): Kind {
  const kind = value.toUpperCase();
  if (kind === 'HTML' || kind === 'MARKDOWN' || kind === 'TEXT') return kind;
  const byExtension = kindOfName(`x.${value.replace(/^\./, '')}`);
  if (byExtension) return byExtension;
  throw new UsageError(`unknown kind "${value}": use HTML, MARKDOWN or TEXT`);
}

export interface UploadOptions {
  name?: string;
  folder?: string;
  share?: ShareInput;
}

/** Reads the document (path or `-`), uploads it, and shows a progress bar for large files on a terminal. */
export async function uploadDocument(context: CommandContext, session: Session, path: string, options: UploadOptions) {
  const document = await readInput(path, context.io, options.name);
  const name = requireName(document);
  const kind = kindOfName(name);
  const file = new File([document.bytes as Uint8Array<ArrayBuffer>], name, {
    type: kind ? `${MEDIA_TYPE[kind]}; charset=utf-8` : 'application/octet-stream',
  });
  const progress = uploadProgress(context.io, file.size, name);
  try {
    return await session.call(
      uploadFile(session.client, { file, folderId: options.folder, share: options.share, onProgress: progress?.update }),
    );
  } finally {
    progress?.stop();
  }
}
