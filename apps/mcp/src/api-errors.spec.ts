import { SharedownApiError } from '@sharedown/contract';
import { describe, expect, it } from 'vitest';
import { LocalValidationError, toErrorBody } from './api-errors.js';

describe(toErrorBody.name, () => {
  const url = 'http://127.0.0.1:9';

  it('keeps the code, status and message of an API error', () => {
    expect(toErrorBody(new SharedownApiError(404, 'NOT_FOUND', '文件不存在'), url)).toEqual({
      code: 'NOT_FOUND',
      status: 404,
      message: '文件不存在',
    });
  });

  it('says when to retry a rate-limited call', () => {
    expect(toErrorBody(new SharedownApiError(429, 'RATE_LIMITED', '请求过于频繁', 17), url)).toEqual({
      code: 'RATE_LIMITED',
      status: 429,
      message: '请求过于频繁 (retry after 17 s)',
    });
  });

  it('turns a failed fetch into UNAVAILABLE naming the address and the socket error', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const body = toErrorBody(new TypeError('fetch failed', { cause }), url);
    expect(body).toEqual({ code: 'UNAVAILABLE', status: 503, message: expect.stringContaining(`${url} (SHAREDOWN_URL)`) });
    expect(body.message).toContain('ECONNREFUSED');
  });

  it('says which route an older service lacks', () => {
    const missing = new SharedownApiError(404, 'NOT_FOUND', '接口不存在', null, false, null, 'GET /api/v1/folders');
    const body = toErrorBody(missing, url);
    expect(body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(body.message).toContain('does not offer GET /api/v1/folders: it is older than this tool server');
  });

  it('explains that a refused token is read-only', () => {
    const body = toErrorBody(new SharedownApiError(403, 'FORBIDDEN', '该令牌为只读令牌，不能执行写操作'), url);
    expect(body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(body.message).toContain('read-only');
    expect(body.message).toContain('"write" scope');
  });

  it('says that the role in the workspace may be what refuses, too', () => {
    const body = toErrorBody(new SharedownApiError(403, 'FORBIDDEN', '只有所有者和管理员可以管理成员和邀请'), url);
    expect(body.message).toContain('只有所有者和管理员可以管理成员和邀请');
    expect(body.message).toContain('a VIEWER changes nothing');
    expect(body.message).toContain('only an OWNER or ADMIN manages members and invitations');
  });

  it('reports contradicting arguments as VALIDATION', () => {
    expect(toErrorBody(new LocalValidationError('bad'), url)).toEqual({ code: 'VALIDATION', status: 400, message: 'bad' });
  });

  it('reports anything else as INTERNAL', () => {
    expect(toErrorBody(new Error('boom'), url)).toEqual({ code: 'INTERNAL', status: 500, message: 'boom' });
  });
});
