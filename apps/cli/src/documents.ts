import { FILE_KINDS, kindOfName, MEDIA_TYPE, type FileKind, type ShareInput } from '@sharedown/contract';
import type { CommandContext } from './context.js';
import { UsageError } from './errors.js';
import { readInput, requireName } from './input.js';
import type { Session } from './session.js';
import { uploadProgress } from './progress.js';
import { uploadFile } from './upload.js';

/** A kind by name (`markdown`) or by extension (`md`, `.md`). */
export function parseKind(value: string): FileKind {
  const kind = FILE_KINDS.find((candidate) => candidate === value.toUpperCase());
  if (kind) return kind;
  const byExtension = kindOfName(`x.${value.replace(/^\./, '')}`);
  if (byExtension) return byExtension;
  throw new UsageError(`unknown kind "${value}": use ${FILE_KINDS.slice(0, -1).join(', ')} or ${FILE_KINDS.at(-1)}`);
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
    type: kind ? MEDIA_TYPE[kind] : 'application/octet-stream',
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
