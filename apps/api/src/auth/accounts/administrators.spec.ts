import { describe, expect, it } from 'vitest';
import { Administrators } from './administrators.js';

const account = (email: string, emailVerified: boolean, adminRole = false) => ({ email, emailVerified, adminRole });

describe(Administrators.name, () => {
  describe('without e-mail', () => {
    const sut = new Administrators(['ops@example.org'], false);

    it('grants ADMIN_EMAILS only to a proven address, whatever its case', () => {
      expect(sut.isAdmin(account('OPS@Example.org', true))).toBe(true);
      expect(sut.isAdmin(account('ops@example.org', false))).toBe(false);
      expect(sut.isAdmin(account('someone@example.org', true))).toBe(false);
    });

    it('keeps the first account an administrator, proven or not: nothing could prove it', () => {
      expect(sut.isAdmin(account('founder@example.org', false, true))).toBe(true);
      expect(sut.isAdmin(account('founder@example.org', true, true))).toBe(true);
    });
  });

  describe('with e-mail', () => {
    const sut = new Administrators(['ops@example.org'], true);

    it('makes the first account an administrator only once its address is proven', () => {
      expect(sut.isAdmin(account('founder@example.org', false, true))).toBe(false);
      expect(sut.isAdmin(account('founder@example.org', true, true))).toBe(true);
    });

    it('grants ADMIN_EMAILS only to a proven address', () => {
      expect(sut.isAdmin(account('ops@example.org', false))).toBe(false);
      expect(sut.isAdmin(account('ops@example.org', true))).toBe(true);
    });
  });

  it('hands SQL the named addresses in lower case, once each', () => {
    expect(new Administrators(['Ops@Example.org', 'ops@example.org', 'b@x.io'], false).addresses).toEqual([
      'ops@example.org',
      'b@x.io',
    ]);
  });
});
