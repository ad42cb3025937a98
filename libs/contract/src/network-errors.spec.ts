import { describe, expect, it } from 'vitest';
import { isNetworkError, networkErrorDetail } from './network-errors.js';

describe(isNetworkError.name, () => {
  it("knows Node's fetch failure and the browsers' own words", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(isNetworkError(new TypeError('fetch failed', { cause: refused }))).toBe(true);
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkError(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(true);
    expect(isNetworkError(new TypeError('Load failed'))).toBe(true);
  });

  it('counts an aborted or timed-out call', () => {
    expect(isNetworkError(new DOMException('The operation was aborted', 'AbortError'))).toBe(true);
    expect(isNetworkError(new DOMException('The operation timed out', 'TimeoutError'))).toBe(true);
  });

  it('leaves programming errors and other failures alone', () => {
    expect(isNetworkError(new TypeError('undefined is not a function'))).toBe(false);
    expect(isNetworkError(new SyntaxError('Unexpected token < in JSON'))).toBe(false);
    expect(isNetworkError(new Error('boom'))).toBe(false);
    expect(isNetworkError('fetch failed')).toBe(false);
  });
});

describe(networkErrorDetail.name, () => {
  it('names the socket error code once', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(networkErrorDetail(new TypeError('fetch failed', { cause: reset }))).toBe('read ECONNRESET');
    const dns = Object.assign(new Error('getaddrinfo failed for nowhere.invalid'), { code: 'ENOTFOUND' });
    expect(networkErrorDetail(new TypeError('fetch failed', { cause: dns }))).toBe(
      'ENOTFOUND getaddrinfo failed for nowhere.invalid',
    );
  });

  it('falls back to the error itself when it has no cause', () => {
    expect(networkErrorDetail(new DOMException('The operation timed out', 'TimeoutError'))).toBe('The operation timed out');
  });
});
