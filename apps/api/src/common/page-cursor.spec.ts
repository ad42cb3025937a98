import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { encodeCursor, pageOf, pageRequestOf, type CursorKey } from './page-cursor.js';

const NUMBERS: CursorKey<{ n: string }> = {
  list: 'numbers',
  encode: (key) => [key.n],
  parse: ([n, ...rest]) => (rest.length === 0 && n !== undefined && /^\d+$/.test(n) ? { n } : null),
};
const OTHER: CursorKey<{ n: string }> = { ...NUMBERS, list: 'other' };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe(pageRequestOf.name, () => {
  it('asks for the whole list when neither limit nor cursor is named', () => {
    expect(pageRequestOf(NUMBERS, {})).toBeNull();
  });

  it('takes a limit of 1..200, 50 when only a cursor is sent, and the position a cursor of its own list encodes', () => {
    expect(pageRequestOf(NUMBERS, { limit: '1' })).toEqual({ limit: 1, after: null });
    expect(pageRequestOf(NUMBERS, { limit: '200' })).toEqual({ limit: 200, after: null });
    expect(pageRequestOf(NUMBERS, { cursor: '' })).toEqual({ limit: 50, after: null });
    expect(pageRequestOf(NUMBERS, { cursor: encodeCursor(NUMBERS, { n: '42' }) })).toEqual({ limit: 50, after: { n: '42' } });
  });

  it.each([['0'], ['201'], ['-1'], ['1.5'], [''], ['abc'], ['0010000'], [['1', '2']]])('refuses limit %j', (limit) => {
    expect(refusal(() => pageRequestOf(NUMBERS, { limit }))).toBe('VALIDATION');
  });

  it.each([
    ['not base64url', 'a b'],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['not an array', Buffer.from('{"n":"1"}').toString('base64url')],
    ['another list', encodeCursor(OTHER, { n: '1' })],
    ['a key that does not fit', Buffer.from('["numbers","x"]').toString('base64url')],
    ['a key with extra values', Buffer.from('["numbers","1","2"]').toString('base64url')],
    ['a non-string value', Buffer.from('["numbers",1]').toString('base64url')],
    ['too long', 'A'.repeat(2049)],
    ['repeated', ['a', 'b']],
  ])('refuses a cursor that is %s', (_what, cursor) => {
    expect(refusal(() => pageRequestOf(NUMBERS, { cursor }))).toBe('VALIDATION');
  });
});

describe(pageOf.name, () => {
  const keyOf = (row: number) => ({ n: String(row) });

  it('keeps the page and points the cursor at its last row when the extra row shows more', () => {
    const page = pageOf([1, 2, 3, 4], 3, NUMBERS, keyOf);
    expect(page.rows).toEqual([1, 2, 3]);
    expect(pageRequestOf(NUMBERS, { cursor: page.nextCursor! })!.after).toEqual({ n: '3' });
  });

  it('answers a null cursor on the last page', () => {
    expect(pageOf([1, 2, 3], 3, NUMBERS, keyOf)).toEqual({ rows: [1, 2, 3], nextCursor: null });
    expect(pageOf([], 3, NUMBERS, keyOf)).toEqual({ rows: [], nextCursor: null });
  });
});
