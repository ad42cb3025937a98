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

  it('decodes an ISO-8859-1 filename*, and reads nothing from a malformed header', () => {
    expect(fileNameOfDisposition(`attachment; filename="b.txt"; filename*=ISO-8859-1''%E9.txt`)).toBe('é.txt');
    expect(fileNameOfDisposition('attachment; filename="unterminated')).toBeUndefined();
  });

  it('answers undefined without a name', () => {
    expect(fileNameOfDisposition(null)).toBeUndefined();
    expect(fileNameOfDisposition('attachment')).toBeUndefined();
  });
});
