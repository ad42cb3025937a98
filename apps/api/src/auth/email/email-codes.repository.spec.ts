import { describe, expect, it } from 'vitest';
import { EmailCodeHasher, newCode } from './email-codes.repository.js';

describe(EmailCodeHasher.name, () => {
  const sut = new EmailCodeHasher('a session secret of at least thirty-two characters');

  it('gives the same digest for an address whatever its case and spaces', () => {
    expect(sut.digest(' Ann@Example.com ', 'sign-in', '123456')).toBe(sut.digest('ann@example.com', 'sign-in', '123456'));
  });

  it('binds the digest to the purpose, the address, the code and the secret', () => {
    const base = sut.digest('ann@example.com', 'sign-in', '123456');
    expect(sut.digest('ann@example.com', 'reset', '123456')).not.toBe(base);
    expect(sut.digest('bob@example.com', 'sign-in', '123456')).not.toBe(base);
    expect(sut.digest('ann@example.com', 'sign-in', '123457')).not.toBe(base);
    expect(
      new EmailCodeHasher('another secret of at least thirty-two characters!').digest('ann@example.com', 'sign-in', '123456'),
    ).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe(newCode.name, () => {
  it('makes six digits, zero-padded, spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
  });
});
