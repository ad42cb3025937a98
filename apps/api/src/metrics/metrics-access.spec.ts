import { describe, expect, it } from 'vitest';
import { MetricsAccess } from './metrics-access.js';

describe(MetricsAccess.name, () => {
  const sut = new MetricsAccess('a-metrics-token-of-some-length');

  it('admits the configured bearer token', () => {
    expect(sut.allows('Bearer a-metrics-token-of-some-length')).toBe(true);
    expect(sut.allows('bearer a-metrics-token-of-some-length')).toBe(true);
  });

  it('refuses another token, a prefix, another scheme and no header', () => {
    expect(sut.allows('Bearer a-metrics-token-of-some-lengtH')).toBe(false);
    expect(sut.allows('Bearer a-metrics-token')).toBe(false);
    expect(sut.allows('Basic a-metrics-token-of-some-length')).toBe(false);
    expect(sut.allows('a-metrics-token-of-some-length')).toBe(false);
    expect(sut.allows(undefined)).toBe(false);
    expect(sut.allows(['Bearer a-metrics-token-of-some-length'])).toBe(false);
  });

  it('refuses everything when no token is configured', () => {
    const off = new MetricsAccess(undefined);
    expect(off.enabled).toBe(false);
    expect(off.allows('Bearer ')).toBe(false);
    expect(off.allows('Bearer undefined')).toBe(false);
  });
});
