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

  it('gives every issue a stable code and names its specifics in params', () => {
    const html = validateDocument('<div><span>x</div>\n<p id="a" id="b" onclick="go()">\u0001</p><br/><x-y/>', 'HTML');
    const codes = html.issues.map((issue) => issue.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'MISMATCHED_END_TAG',
        'DUPLICATE_ATTRIBUTE',
        'EVENT_HANDLER',
        'CONTROL_CHARACTER',
        'MISSING_DOCTYPE',
        'MISSING_TITLE',
      ]),
    );
    expect(html.issues.find((issue) => issue.code === 'MISMATCHED_END_TAG')).toMatchObject({
      params: { tag: 'div', open: 'span', line: '1', col: '6' },
    });
    expect(html.issues.find((issue) => issue.code === 'CONTROL_CHARACTER')).toMatchObject({ params: { character: 'U+0001' } });
    const markdown = validateDocument('See [the plan][nowhere].\n\n```js\nopen', 'MARKDOWN');
    expect(markdown.issues.map((issue) => [issue.code, issue.params])).toEqual([
      ['UNDEFINED_REFERENCE', { label: 'nowhere' }],
      ['UNCLOSED_FENCE', { fence: '```' }],
    ]);
  });

  it('sums up what goes past the limit of one code as MORE_ISSUES of that code', () => {
    const result = validateDocument('\u0001'.repeat(53), 'TEXT');
    expect(result.issues).toHaveLength(51);
    expect(result.issues.find((issue) => issue.code === 'MORE_ISSUES')).toMatchObject({
      level: 'error',
      code: 'MORE_ISSUES',
      params: { count: '3', code: 'CONTROL_CHARACTER' },
    });
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
