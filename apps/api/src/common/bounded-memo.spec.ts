import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('remembers values and drops the oldest half when full', () => {
    const memo = new BoundedMemo<string, number>(4);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) memo.set(key, i);
    expect(memo.get('c')).toBe(2);
    memo.set('e', 4);
    expect(memo.size).toBe(3);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('d')).toBe(3);
    expect(memo.get('e')).toBe(4);
  });
});
