import { describe, expect, it } from 'vitest';
import { fileNameOfDisposition } from './content-disposition.js';

describe(fileNameOfDisposition.name, () => {
  it('reads a quoted ASCII name', () => {
    expect(fileNameOfDisposition('attachment; filename="notes.md"')).toBe('notes.md');
  });

  it('prefers the UTF-8 filename* over its ASCII fallback', () => {
    expect(fileNameOfDisposition(`attachment; filename="??.md"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.md`)).toBe('报告.md');
  });

  it('unescapes quoted characters', () => {
    expect(fileNameOfDisposition('attachment; filename="say \\"hi\\".txt"')).toBe('say "hi".txt');
  });

  it('reads an unquoted token', () => {
    expect(fileNameOfDisposition('attachment; filename=a.txt')).toBe('a.txt');
  });

  it('falls back to filename when filename* is malformed or not UTF-8', () => {
    expect(fileNameOfDisposition(`attachment; filename="a.txt"; filename*=UTF-8''%E6%8A`)).toBe('a.txt');
    expect(fileNameOfDisposition(`attachment; filename="b.txt"; filename*=ISO-8859-1''%E9.txt`)).toBe('b.txt');
  });

  it('answers undefined without a name', () => {
    expect(fileNameOfDisposition(null)).toBeUndefined();
    expect(fileNameOfDisposition('attachment')).toBeUndefined();
  });
});
