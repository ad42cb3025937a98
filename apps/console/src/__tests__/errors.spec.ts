import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR, SharedownApiError } from '../api/client';
import { ERROR_CODES } from '@sharedown/contract';
import { errorMessage } from '../api/errors';

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

  it('names the field the api gave for a validation error, in every language but Chinese', () => {
    const error = new SharedownApiError(400, 'VALIDATION', 'password 长度必须在 4 到 32 个字符之间', null, false, 'password');
    expect(errorMessage(error, 'en')).toBe('Some of the input is not valid. Check “password”.');
    expect(errorMessage(error, 'de')).toBe('Ein Teil der Eingaben ist ungültig. Prüfen Sie „password“.');
    expect(errorMessage(error, 'zh')).toBe('password 长度必须在 4 到 32 个字符之间');
    expect(errorMessage(new SharedownApiError(400, 'VALIDATION', '请求参数无效'), 'en')).toBe('Some of the input is not valid.');
  });

  it('words every code of the contract in every language', () => {
    for (const locale of ['en', 'ja', 'de', 'fr', 'es'] as const) {
      for (const code of ERROR_CODES) {
        const text = errorMessage(new SharedownApiError(400, code, '中文'), locale);
        expect(text, `${locale} ${code}`).not.toBe('');
        expect(text, `${locale} ${code}`).not.toContain('中文');
      }
    }
    expect(errorMessage(new SharedownApiError(404, 'NOT_FOUND', '中文'), 'ja')).toBe(
      '存在しないか、あなたのものではありません。',
    );
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
