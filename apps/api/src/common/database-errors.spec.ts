import { QueryFailedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from './app-error.js';
import { appErrorFromDatabase, isUnavailable } from './database-errors.js';
import { TimeoutError } from './with-timeout.js';

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

  it.each(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08P01'])(
    'maps %s (the server stopping, starting or unreachable) to 503 UNAVAILABLE with a Retry-After',
    (state) => {
      expect(sut(driverError(state))).toMatchObject({ code: ErrorCode.UNAVAILABLE, retryAfterSeconds: 5 });
      expect(sut(new QueryFailedError('SELECT 1', [], driverError(state)))).toMatchObject({ code: ErrorCode.UNAVAILABLE });
    },
  );

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connection closed by the server', new Error('Connection terminated unexpectedly')],
    ['a connect that timed out', new Error('Connection terminated due to connection timeout')],
    ['a pool with no free client', new Error('timeout exceeded when trying to connect')],
    ['a broken pooled client', new Error('Client has encountered a connection error and is not queryable')],
    ['a query without an answer', new Error('Query read timeout')],
    ['a statement over the statement_timeout', driverError('57014', 'canceling statement due to statement timeout')],
    ['Redis gone', new Error('Connection is closed.')],
    ['Redis offline', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a Redis command without an answer', new Error('Command timed out')],
    [
      'Redis retries used up',
      Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' }),
    ],
    ['Redis loading its data', new Error('LOADING Redis is loading the dataset in memory')],
    ['a queue that did not answer in time', new TimeoutError(2000)],
    ['every address refused', Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {})],
    ['a wrapped cause', new Error('enqueue failed', { cause: new Error('Connection is closed.') })],
    ['a transaction whose connection was lost between statements', new QueryRunnerProviderAlreadyReleasedError()],
    [
      'a QueryFailedError over a lost connection',
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
    ],
  ])('maps %s to 503 UNAVAILABLE', (_, error) => {
    expect(sut(error)).toMatchObject({ code: ErrorCode.UNAVAILABLE, message: '服务暂时不可用，请稍后重试' });
    expect(isUnavailable(error)).toBe(true);
  });

  it('counts an UNAVAILABLE AppError as unavailable, and no other code', () => {
    expect(isUnavailable(new AppError(ErrorCode.UNAVAILABLE))).toBe(true);
    expect(isUnavailable(new AppError(ErrorCode.INTERNAL))).toBe(false);
    expect(isUnavailable(driverError('40P01'))).toBe(false);
  });

  it('leaves every other error alone', () => {
    for (const error of [
      driverError('23505'),
      driverError('57014', 'canceling statement due to user request'),
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
