import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { validationPipe } from './validation-pipe.js';

class InnerDto {
  @IsInt({ message: 'days 必须是整数' })
  days: number;
}

class OuterDto {
  @IsString({ message: 'name 必须是字符串' })
  name: string;

  @ValidateNested()
  @Type(() => InnerDto)
  inner: InnerDto;
}

async function refusal(value: object): Promise<AppError> {
  try {
    await validationPipe.transform(value, { type: 'body', metatype: OuterDto });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('validationPipe', () => {
  it('names the field of a VALIDATION error beside the message, as a dotted path when nested', async () => {
    const flat = await refusal({ name: 1, inner: { days: 1 } });
    expect(flat).toMatchObject({ code: 'VALIDATION', message: 'name 必须是字符串', extras: { field: 'name' } });
    const nested = await refusal({ name: 'a', inner: { days: 'x' } });
    expect(nested).toMatchObject({ message: 'days 必须是整数', extras: { field: 'inner.days' } });
  });

  it('names an unknown field too', async () => {
    expect(await refusal({ name: 'a', inner: { days: 1 }, extra: true })).toMatchObject({
      message: '不允许的字段：extra',
      extras: { field: 'extra' },
    });
  });
});
