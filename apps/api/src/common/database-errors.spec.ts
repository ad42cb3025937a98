import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from './app-error.js';
import { appErrorFromDatabase } from './database-errors.js';

/** Shaped like the pg driver's DatabaseError: a message and a SQLSTATE in `code`. */
function driverError(code: string, message = 'database failure'): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

describe(appErrorFromDatabase.name, () => {
  const sut = appErrorFromDatabase;

  it.each(['40P01', '40001', '55P03'])('maps %s (a lost race) to 409 CONFLICT', (state) => {
    const mapped = sut(driverError(state));
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped).toMatchObject({ code: ErrorCode.CONFLICT, message: '操作冲突，请重试' });
  });

  it.each(['22021', '22P05'])('maps %s (text the database refuses) to 400 VALIDATION', (state) => {
    expect(sut(driverError(state))).toMatchObject({ code: ErrorCode.VALIDATION, message: '请求包含无效字符' });
  });

  it('reads the SQLSTATE of the driver error a QueryFailedError wraps', () => {
    const wrapped = new QueryFailedError('UPDATE folders SET parent_id = $1', [], driverError('40P01', 'deadlock detected'));
    expect(sut(wrapped)).toMatchObject({ code: ErrorCode.CONFLICT });
    expect(sut({ driverError: { code: '22P05' } })).toMatchObject({ code: ErrorCode.VALIDATION });
  });

  it('leaves every other error alone', () => {
    for (const error of [
      driverError('23505'),
      driverError('57014'),
      new QueryFailedError('SELECT 1', [], driverError('42P01')),
      Object.assign(new Error('bad json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' }),
      { code: 'constructor' },
      { code: 40001 },
      new Error('plain'),
      'text',
      null,
      undefined,
    ]) {
      expect(sut(error), String(error)).toBeNull();
    }
  });
});
