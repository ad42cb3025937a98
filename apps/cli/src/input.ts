import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';

export interface InputDocument {
  bytes: Buffer;
  /** File name: `--name` when given, else the path's base name; required for stdin. */
  name: string | undefined;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Reads a document from a path, or from stdin when the path is `-`. */
export async function readInput(path: string, io: CliIo, name?: string): Promise<InputDocument> {
  if (path === '-') {
    if (io.stdin.isTTY) io.stderr.write('Reading from stdin; end with Ctrl-D.\n');
    return { bytes: await readStream(io.stdin), name };
  }
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${path} is a directory; give a single .html, .md or .txt file`);
    return { bytes: await readFile(path), name: name ?? basename(path) };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${path}: no such file`);
    if (code === 'EACCES') throw new UsageError(`${path}: permission denied`);
    throw error;
  }
}

export function requireName(document: InputDocument): string {
  if (!document.name) throw new UsageError('reading from stdin needs --name <file name>, e.g. --name notes.md');
  return document.name;
}
