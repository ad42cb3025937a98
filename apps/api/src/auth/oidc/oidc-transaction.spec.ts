import { describe, expect, it, vi } from 'vitest';
import type { FastifyReply } from 'fastify';
import type { Runtime } from '../../common/runtime.js';
import { OIDC_TRANSACTION_COOKIE, OIDC_TRANSACTION_PATH, OidcTransactions, safeReturnPath } from './oidc-transaction.js';

describe(safeReturnPath.name, () => {
  it('keeps console pages and share links', () => {
    expect(safeReturnPath('/shares/abc?tab=visits')).toBe('/shares/abc?tab=visits');
    expect(safeReturnPath('/s/bob/q3-report')).toBe('/s/bob/q3-report');
    expect(safeReturnPath('/s/_bounce?next=%2Fs%2Fbob%2Fq3')).toBe('/s/_bounce?next=%2Fs%2Fbob%2Fq3');
  });

  it('never leaves the service', () => {
    for (const hostile of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/s//evil.example',
      'javascript:alert(1)',
      '/files\n',
      ' /files',
      '/files#x',
      undefined,
      ['/files'],
    ]) {
      expect(safeReturnPath(hostile)).toBe('/files');
    }
  });

  it('does not return to the API or to the sign-in pages', () => {
    expect(safeReturnPath('/api/auth/oidc/start')).toBe('/files');
    expect(safeReturnPath('/api')).toBe('/files');
    expect(safeReturnPath('/login?error=sso')).toBe('/files');
    expect(safeReturnPath('/register')).toBe('/files');
  });
});

describe(OidcTransactions.name, () => {
  const runtime = { env: { PUBLIC_URL: 'https://share.example' }, sessionSecret: 'k'.repeat(40) } as Runtime;
  const attempt = { state: 'state-1', nonce: 'nonce-1', codeVerifier: 'verifier-1' };

  function stored(sut: OidcTransactions, next: string): { value: string; options: Record<string, unknown> } {
    const setCookie = vi.fn();
    sut.store({ setCookie } as unknown as FastifyReply, attempt, next);
    const [name, value, options] = setCookie.mock.calls[0]!;
    expect(name).toBe(OIDC_TRANSACTION_COOKIE);
    return { value, options };
  }

  it('keeps the attempt in a ten-minute, HttpOnly, Lax cookie sent only to the sign-in routes', () => {
    const sut = new OidcTransactions(runtime);
    const { value, options } = stored(sut, '/s/bob/report');
    expect(options).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: true, path: OIDC_TRANSACTION_PATH, maxAge: 600 });
    expect(sut.read(value)).toEqual({ attempt, next: '/s/bob/report' });
  });

  it('refuses a cookie that was altered, signed by another secret, or is older than ten minutes', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const sut = new OidcTransactions(runtime);
      const { value } = stored(sut, '/files');
      const [body, signature] = value.split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), s: 'other' }),
      ).toString('base64url');
      expect(sut.read(`${forged}.${signature}`)).toBeNull();
      expect(new OidcTransactions({ ...runtime, sessionSecret: 'x'.repeat(40) }).read(value)).toBeNull();
      expect(sut.read(undefined)).toBeNull();
      vi.setSystemTime(new Date('2030-01-01T00:10:01Z'));
      expect(sut.read(value)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
