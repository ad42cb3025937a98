import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR, SharedownApiError } from '../api/client';
import { errorMessage, fieldOf } from '../api/errors';

describe('errorMessage', () => {
  it("shows the API's own Chinese message in the Chinese UI", () => {
    const error = new SharedownApiError(409, 'SLUG_TAKEN', '自定义短链接“q3”已被占用');
    expect(errorMessage(error, 'zh')).toBe('自定义短链接“q3”已被占用');
  });

  it.each([
    ['UNAUTHENTICATED', 'You are not signed in, or your session has expired.'],
    ['FORBIDDEN', 'You are not allowed to do this.'],
    ['NOT_FOUND', 'It does not exist, or it is not yours.'],
    ['OVER_QUOTA', 'The file is too large or your storage quota is used up.'],
    ['INFECTED', 'The antivirus scanner flagged this file as unsafe.'],
    ['SLUG_TAKEN', 'This custom link name is already taken.'],
    ['DUPLICATE', 'A file with this name already exists in the folder.'],
    ['CONFLICT', 'This conflicts with the current state. Reload and try again.'],
    ['INTERNAL', 'Something went wrong on the server. Try again later.'],
  ])('gives an English message for %s', (code, text) => {
    expect(errorMessage(new SharedownApiError(400, code, '中文'), 'en')).toBe(text);
  });

  it('names the field of a validation error in English', () => {
    const error = new SharedownApiError(400, 'VALIDATION', 'password 长度必须在 4 到 32 个字符之间');
    expect(errorMessage(error, 'en')).toBe('Some of the input is not valid. Check “password”.');
    expect(fieldOf('不允许的字段：foo')).toBe('foo');
  });

  it('adds the wait time of a rate limit', () => {
    expect(errorMessage(new SharedownApiError(429, 'RATE_LIMITED', '请求过于频繁', 12), 'en')).toBe(
      'Too many requests. Wait a moment and try again. (retry in 12 s)',
    );
  });

  it('explains network failures in both languages', () => {
    const offline = new SharedownApiError(0, NETWORK_ERROR, 'Failed to fetch');
    expect(errorMessage(offline, 'en')).toBe('The service could not be reached. Check your connection.');
    expect(errorMessage(offline, 'zh')).toBe('无法连接到服务，请检查网络连接。');
    expect(errorMessage(new TypeError('boom'), 'zh')).toBe('无法连接到服务，请检查网络连接。');
  });
});
