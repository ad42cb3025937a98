import 'reflect-metadata';
import { IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { validationPipe } from './validation-pipe.js';
import { AppError } from './app-error.js';
import { CONTROL_CHARACTERS, NoControlCharacters } from './text-rules.js';

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
