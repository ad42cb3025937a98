import { describe, expect, it } from 'vitest';
import { isRecoveryShaped, isTotpShaped, newRecoveryCodes, normalizeCode, recoveryCodeDigest } from './recovery-codes.js';

describe('recovery codes', () => {
  it('makes ten distinct codes in the shown form xxxxx-xxxxx', () => {
    const sut = newRecoveryCodes();
    expect(sut).toHaveLength(10);
    expect(new Set(sut).size).toBe(10);
    for (const code of sut) {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(isRecoveryShaped(normalizeCode(code))).toBe(true);
    }
  });

  it('accepts a code typed in capitals, with spaces, without the dash', () => {
    const [code] = newRecoveryCodes() as [string];
    const typed = ` ${code.toUpperCase().replace('-', ' ')} `;
    expect(recoveryCodeDigest(normalizeCode(typed))).toBe(recoveryCodeDigest(normalizeCode(code)));
  });

  it('tells a TOTP code from a recovery code', () => {
    expect(isTotpShaped(normalizeCode('123 456'))).toBe(true);
    expect(isTotpShaped('12345')).toBe(false);
    expect(isRecoveryShaped('123456')).toBe(false);
    expect(isRecoveryShaped('abcde0ghjk')).toBe(false);
  });
});
