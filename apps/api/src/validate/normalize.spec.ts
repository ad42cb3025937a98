import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.js';

describe(normalize.name, () => {
  it('removes a leading BOM', () => {
    expect(normalize('\uFEFFhello')).toBe('hello');
  });

  it('turns CRLF into LF and keeps the number of lines', () => {
    expect(normalize('a\r\nb\r\n\r\nc')).toBe('a\nb\n\nc');
  });

  it('turns every tab into four spaces', () => {
    expect(normalize('\tx\t\ty')).toBe('    x        y');
  });

  it('trims trailing whitespace on every line, including lines that were only tabs', () => {
    expect(normalize('a  \nb\t\n\t\n  c \u00a0\r\nd')).toBe('a\nb\n\n  c\nd');
  });

  it('leaves leading indentation and inner spaces alone', () => {
    expect(normalize('  a  b\n    c')).toBe('  a  b\n    c');
  });

  it('is idempotent', () => {
    const once = normalize('\uFEFF x\t \r\n\ty  \r\n');
    expect(normalize(once)).toBe(once);
  });
});
