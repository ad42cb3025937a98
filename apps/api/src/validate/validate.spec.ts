import { describe, expect, it } from 'vitest';
import { AppError } from '../common/app-error.js';
import { MAX_VALIDATE_CHARACTERS, codePointLengthExceeds, validateDocument } from './validate.js';

describe(validateDocument.name, () => {
  it('returns the normalized text and ok for clean input', () => {
    expect(validateDocument('\uFEFFhello\t \r\nworld', 'TEXT')).toEqual({
      kind: 'TEXT',
      ok: true,
      normalized: 'hello\nworld',
      issues: [],
    });
  });

  it('is not ok exactly when an error exists', () => {
    expect(validateDocument('<p>x</p>', 'HTML').ok).toBe(true);
    expect(validateDocument('<p>x</p>', 'HTML').issues.length).toBeGreaterThan(0);
    expect(validateDocument('<div>x', 'HTML').ok).toBe(false);
  });

  it('checks control characters for every kind', () => {
    expect(validateDocument('# a\u0001', 'MARKDOWN').ok).toBe(false);
  });

  it('refuses content over the limit in code points, and accepts it at the limit', () => {
    const atLimit = 'a'.repeat(MAX_VALIDATE_CHARACTERS - 1) + '😀';
    expect(validateDocument(atLimit, 'TEXT').ok).toBe(true);
    expect(() => validateDocument(atLimit + 'a', 'TEXT')).toThrow(AppError);
    expect(() => validateDocument(atLimit + 'a', 'TEXT')).toThrow(`content 最多 ${MAX_VALIDATE_CHARACTERS} 个字符`);
  });

  it('orders issues by position', () => {
    const { issues } = validateDocument('a\u0001\n[x][y]\n\u0002', 'MARKDOWN');
    expect(issues.map((issue) => issue.line)).toEqual([1, 2, 3]);
  });
});

describe(codePointLengthExceeds.name, () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLengthExceeds('😀'.repeat(10), 10)).toBe(false);
    expect(codePointLengthExceeds('😀'.repeat(11), 10)).toBe(true);
    expect(codePointLengthExceeds('a'.repeat(10), 10)).toBe(false);
    expect(codePointLengthExceeds('a'.repeat(11), 10)).toBe(true);
  });
});
