import { SharedownApiError } from '@sharedown/contract';
import { describe, expect, it } from 'vitest';
import { ExitCode, NetworkError, reportOf, UsageError } from './errors.js';

describe(reportOf.name, () => {
  it('exits 1 with the API code and its message in the user language, the api text for Chinese', () => {
    const missing = new SharedownApiError(404, 'NOT_FOUND', '文件不存在');
    expect(reportOf(missing)).toEqual({
      exitCode: ExitCode.API_ERROR,
      code: 'NOT_FOUND',
      status: 404,
      message: 'It does not exist, or it is not yours.',
    });
    expect(reportOf(missing, new Date(), 'es').message).toBe('No existe o no es tuyo.');
    expect(reportOf(missing, new Date(), 'zh-CN').message).toBe('文件不存在');
  });

  it('names the field of a validation error', () => {
    const invalid = new SharedownApiError(400, 'VALIDATION', 'slug 只能包含字母、数字、_ 和 -', null, false, 'slug');
    expect(reportOf(invalid, new Date(), 'de')).toMatchObject({
      field: 'slug',
      message: 'Ein Teil der Eingaben ist ungültig. Prüfen Sie „slug“.',
    });
  });

  it('adds when a rate-limited call may be retried', () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    expect(reportOf(new SharedownApiError(429, 'RATE_LIMITED', 'slow down', 30), now)).toMatchObject({
      exitCode: ExitCode.API_ERROR,
      retryAfterSeconds: 30,
      retryAt: '2030-01-01T00:00:30.000Z',
    });
  });

  it('explains that a refused token is read-only', () => {
    const report = reportOf(new SharedownApiError(403, 'FORBIDDEN', '该令牌为只读令牌，不能执行写操作'));
    expect(report).toMatchObject({ exitCode: ExitCode.API_ERROR, code: 'FORBIDDEN', status: 403 });
    expect(report.message).toContain('read-only');
  });

  it('says that the role in the workspace may be what refuses, too', () => {
    const report = reportOf(new SharedownApiError(403, 'FORBIDDEN', '只有所有者和管理员可以管理成员和邀请'));
    expect(report.message).toContain('a VIEWER changes nothing');
    expect(report.message).toContain('only an OWNER or ADMIN manages members and invitations');
  });

  it('says which route an older service lacks instead of a missing resource', () => {
    const missing = new SharedownApiError(404, 'INTERNAL', 'Not Found', null, false, null, 'GET /api/v1/folders');
    expect(reportOf(missing, new Date(), 'de')).toEqual({
      exitCode: ExitCode.API_ERROR,
      code: 'NOT_FOUND',
      status: 404,
      message:
        'this service does not offer GET /api/v1/folders: it is older than this client (update the service, or use the client of its version)',
    });
  });

  it('names SHAREDOWN_URL, or the stored address, when the service cannot be reached', () => {
    expect(reportOf(new NetworkError('http://x', 'ECONNREFUSED', 'env')).message).toBe(
      'cannot reach http://x (SHAREDOWN_URL): ECONNREFUSED',
    );
    expect(reportOf(new NetworkError('http://x', 'ECONNREFUSED', 'file')).message).toContain('SHAREDOWN_URL overrides it');
  });

  it('exits 2 for usage errors and 3 for network errors', () => {
    expect(reportOf(new UsageError('bad')).exitCode).toBe(ExitCode.USAGE);
    expect(reportOf(new NetworkError('http://x', 'ECONNREFUSED'))).toMatchObject({
      exitCode: ExitCode.NETWORK,
      code: 'UNAVAILABLE',
    });
  });
});
