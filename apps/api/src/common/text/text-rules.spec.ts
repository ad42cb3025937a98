import 'reflect-metadata';
import { IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { validationPipe } from '../validation-pipe.js';
import { AppError } from '../app-error.js';
import { CONTROL_CHARACTERS, isInvisibleOnly, NoControlCharacters } from './text-rules.js';

class NamedDto {
  @IsString({ message: 'name 必须是字符串' })
  @NoControlCharacters('name')
  name: string;
}

class ListDto {
  @IsString({ each: true, message: 'tags 的每一项必须是字符串' })
  @NoControlCharacters('tags 的每一项', { each: true })
  tags: string[];
}

async function outcome(metatype: new () => object, value: object): Promise<string> {
  try {
    await validationPipe.transform(value, { type: 'body', metatype });
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
}

describe(NoControlCharacters.name, () => {
  it('accepts ordinary text, including non-ASCII and visible punctuation', async () => {
    for (const name of ['ci', '部署 令牌', 'a-b_c.d (1)', '😀']) expect(await outcome(NamedDto, { name })).toBe('accepted');
  });

  it('refuses C0 controls, DEL and C1 controls', async () => {
    for (const code of [0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f]) {
      const name = `a${String.fromCharCode(code)}b`;
      expect(await outcome(NamedDto, { name }), `U+${code.toString(16)}`).toBe('name 不能包含控制字符');
    }
  });

  it('leaves a value of the wrong type to the type rule', async () => {
    expect(await outcome(NamedDto, { name: 5 })).toBe('name 必须是字符串');
  });

  it('checks every element with each: true', async () => {
    expect(await outcome(ListDto, { tags: ['a', 'b'] })).toBe('accepted');
    expect(await outcome(ListDto, { tags: ['a', 'b\u0000'] })).toBe('tags 的每一项 不能包含控制字符');
  });
});

describe('CONTROL_CHARACTERS', () => {
  it('matches exactly U+0000–U+001F and U+007F–U+009F', () => {
    const sut = CONTROL_CHARACTERS;
    const matched = Array.from({ length: 0x200 }, (_, code) => code).filter((code) => sut.test(String.fromCharCode(code)));
    expect(matched).toEqual([...Array.from({ length: 0x20 }, (_, i) => i), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)]);
  });
});

describe(isInvisibleOnly.name, () => {
  const sut = isInvisibleOnly;
  const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

  it('is true for text of invisible characters only: fillers, braille blank, tags, separators, spaces, format characters', () => {
    const tags = Array.from({ length: 0x80 }, (_, i) => 0xe0000 + i);
    const others = [0x3164, 0x115f, 0x1160, 0xffa0, 0x2800, 0x2028, 0x2029, 0x20, 0xa0, 0x3000, 0x200b, 0x200d, 0x2060, 0xfeff];
    for (const code of [...tags, ...others]) {
      const character = String.fromCodePoint(code);
      expect(sut(character), hex(code)).toBe(true);
      expect(sut(character.repeat(3)), hex(code)).toBe(true);
    }
    expect(sut('\u3164\u2800\u{E0041}\u2028 \u200b\u2029')).toBe(true);
    expect(sut('')).toBe(true);
  });

  it('is false as soon as one visible character is there', () => {
    for (const text of [
      'a',
      '\u3164a',
      'a\u2800',
      '\u{E0041}x\u{E007F}',
      '周',
      '😀',
      '.',
      '\u0301',
      '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    ]) {
      expect(sut(text), JSON.stringify(text)).toBe(false);
    }
  });
});
