import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { statusOf } from './error-code.js';
import { assertJsonDepth, jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth.js';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe(jsonDepthExceeds.name, () => {
  it('accepts scalars and nesting up to the limit', () => {
    const sut = jsonDepthExceeds;
    for (const text of ['1', '"x"', 'null', '{}', '[]', '{"a":[1,{"b":[]}]}']) expect(sut(text), text).toBe(false);
    expect(sut(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(sut(objects(MAX_JSON_DEPTH))).toBe(false);
  });

  it('refuses one level past the limit, for arrays, objects and a mix', () => {
    const sut = jsonDepthExceeds;
    expect(sut(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(sut(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(sut('[{"a":'.repeat(17) + '1' + '}]'.repeat(17))).toBe(true);
  });

  it('counts the deepest branch, not the total of siblings', () => {
    const sut = jsonDepthExceeds;
    const siblings = `[${Array.from({ length: 1000 }, () => arrays(MAX_JSON_DEPTH - 1)).join(',')}]`;
    expect(sut(siblings)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const sut = jsonDepthExceeds;
    expect(sut(JSON.stringify({ a: '['.repeat(1000) }))).toBe(false);
    expect(sut(JSON.stringify({ a: '\\"[[[[' + '{'.repeat(100), b: '\\' }))).toBe(false);
    expect(sut(`["\\\\", ${arrays(MAX_JSON_DEPTH)}]`)).toBe(true);
  });

  it('honours a given limit', () => {
    const sut = jsonDepthExceeds;
    expect(sut(arrays(3), 3)).toBe(false);
    expect(sut(arrays(4), 3)).toBe(true);
  });

  it('reads a 100 000-level text without recursing', () => {
    const sut = jsonDepthExceeds;
    expect(sut(arrays(100_000), 200_000)).toBe(false);
    expect(sut(arrays(100_000))).toBe(true);
  });
});

describe(assertJsonDepth.name, () => {
  it('throws 400 VALIDATION naming the input', () => {
    const sut = assertJsonDepth;
    expect(() => sut(arrays(3000), 'share 字段')).toThrow(AppError);
    try {
      sut(arrays(3000), 'share 字段');
    } catch (error) {
      expect((error as AppError).code).toBe('VALIDATION');
      expect(statusOf((error as AppError).code)).toBe(400);
      expect((error as AppError).message).toBe(`share 字段嵌套层级过深：最多 ${MAX_JSON_DEPTH} 层`);
    }
    expect(() => sut('{"a":[1]}', '请求体')).not.toThrow();
  });
});
