import { describe, expect, it } from 'vitest';
import { checkText } from './text-checks.js';

describe(checkText.name, () => {
  it('accepts ordinary multilingual text', () => {
    expect(checkText('Hello 世界\n    indented\n😀 emoji\n')).toEqual([]);
  });

  it('reports control characters as errors with their position', () => {
    const issues = checkText('ok\nab\u0007c\n\u0000');
    expect(issues).toEqual([
      expect.objectContaining({ level: 'error', line: 2, col: 3, message: expect.stringContaining('U+0007') }),
      expect.objectContaining({ level: 'error', line: 3, col: 1, message: expect.stringContaining('U+0000') }),
    ]);
  });

  it('reports C1 controls and DEL', () => {
    expect(checkText('a\u007fb\u0085').map((issue) => issue.col)).toEqual([2, 4]);
  });

  it('warns about a bare carriage return and a form feed but accepts them', () => {
    const issues = checkText('a\rb\n\f');
    expect(issues.map((issue) => issue.level)).toEqual(['warning', 'warning']);
  });

  it('reports unpaired surrogates', () => {
    const issues = checkText('x\ud800y');
    expect(issues).toEqual([expect.objectContaining({ level: 'error', line: 1, col: 2 })]);
  });

  it('caps repeated issues of one kind and summarizes the rest', () => {
    const issues = checkText('\u0001'.repeat(80));
    expect(issues).toHaveLength(51);
    expect(issues.at(-1)!.message).toContain('30');
  });
});
