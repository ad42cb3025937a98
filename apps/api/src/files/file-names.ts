import { CONTROL_CHARACTERS, isInvisibleOnly } from '../common/text/text-rules.js';
import { LIMITS } from '@sharedown/contract/limits';

/** Document kinds the service hosts, as the contract names them. */
export const FILE_KINDS = ['HTML', 'MARKDOWN', 'TEXT'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const KIND_BY_EXTENSION: Record<string, FileKind> = {
  '.html': 'HTML',
  '.htm': 'HTML',
  '.md': 'MARKDOWN',
  '.markdown': 'MARKDOWN',
  '.txt': 'TEXT',
  '.text': 'TEXT',
};

export const ACCEPTED_EXTENSIONS = Object.keys(KIND_BY_EXTENSION);
export const MAX_NAME_LENGTH = LIMITS.fileName.max;

// Invisible formatting characters that make a name read differently from what it is:
// bidi embeddings, overrides and isolates (`invoice\u202Etxt.html` shows as `invoicelmth.txt`),
// zero-width spaces and joiners, direction marks, word joiner and invisible operators,
// the Arabic letter mark, the Mongolian vowel separator and the byte order mark.
const INVISIBLE_FORMATTING = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/**
 * A file or folder name as it is stored and compared: Unicode NFC, so that `café` typed with a
 * precomposed é (U+00E9) and as e + combining acute (U+0065 U+0301) are one name, and the second
 * is a duplicate of the first. Every write of a name normalises it before any check.
 */
export function nfcName(name: string): string {
  return name.normalize('NFC');
}

/** The extension (with its dot, lower-cased) of a name, or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

export function kindOfName(name: string): FileKind | null {
  return KIND_BY_EXTENSION[extensionOf(name)] ?? null;
}

/** Why a file name is refused, or null when it is acceptable. */
export function fileNameProblem(name: string): string | null {
  if (!name || !name.trim()) return '文件名不能为空';
  if (name.length > MAX_NAME_LENGTH) return `文件名最长 ${MAX_NAME_LENGTH} 个字符`;
  if (name.includes('/') || name.includes('\\')) return '文件名不能包含路径分隔符';
  if (CONTROL_CHARACTERS.test(name)) return '文件名不能包含控制字符';
  if (INVISIBLE_FORMATTING.test(name)) return '文件名不能包含双向文本控制符或零宽字符';
  if (name !== name.trim()) return '文件名不能以空白字符开头或结尾';
  const extension = extensionOf(name);
  // `ㅤ.md` (U+3164) shows as a bare extension; a name of nothing visible names nothing.
  if (isInvisibleOnly(name.slice(0, name.length - extension.length))) return '文件名不能只由不可见字符组成';
  if (!KIND_BY_EXTENSION[extension]) {
    return `不支持的文件类型：只接受 ${ACCEPTED_EXTENSIONS.join(' ')} 文件`;
  }
  if (name.length === extension.length) return '文件名不能只有扩展名';
  return null;
}

/** Why a folder name is refused, or null when it is acceptable. */
export function folderNameProblem(name: string): string | null {
  if (!name || !name.trim()) return '文件夹名不能为空';
  if (name.length > MAX_NAME_LENGTH) return `文件夹名最长 ${MAX_NAME_LENGTH} 个字符`;
  if (name.includes('/') || name.includes('\\')) return '文件夹名不能包含路径分隔符';
  if (CONTROL_CHARACTERS.test(name)) return '文件夹名不能包含控制字符';
  if (INVISIBLE_FORMATTING.test(name)) return '文件夹名不能包含双向文本控制符或零宽字符';
  if (name !== name.trim()) return '文件夹名不能以空白字符开头或结尾';
  if (isInvisibleOnly(name)) return '文件夹名不能只由不可见字符组成';
  if (name === '.' || name === '..') return '文件夹名无效';
  return null;
}

/**
 * The n-th alternative of a taken name: `report.md` → `report (1).md`, `report (2).md`, …
 * A name that already ends in ` (k)` is numbered afresh from its stem, so renaming
 * `report (1).md` gives `report (2).md` rather than `report (1) (1).md`.
 */
export function numberedName(name: string, n: number): string {
  const extension = extensionOf(name);
  const stem = extension ? name.slice(0, name.length - extension.length) : name;
  const base = stem.replace(/ \(\d+\)$/, '') || stem;
  const originalExtension = extension ? name.slice(name.length - extension.length) : '';
  return `${base} (${n})${originalExtension}`;
}
