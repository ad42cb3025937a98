import { describe, expect, it, vi } from 'vitest';
import { Signer } from './signer.js';

describe(Signer.name, () => {
  const sut = new Signer('s'.repeat(40), 'purpose-a');

  it('verifies what it signed and nothing else', () => {
    const signed = sut.sign('visitor.key');
    expect(sut.verify(signed)).toBe('visitor.key');
    expect(sut.verify(`${signed}x`)).toBeNull();
    expect(sut.verify(signed.replace('visitor', 'visiter'))).toBeNull();
    expect(sut.verify(undefined)).toBeNull();
    expect(sut.verify('no-signature')).toBeNull();
  });

  it('signs as HMAC-SHA256 under the key derived from the secret and purpose, so cookies issued before still verify', () => {
    // HMAC-SHA256(HMAC-SHA256(secret, 'sharedown-viewer:purpose-a'), 'visitor.key'), base64url.
    expect(sut.sign('visitor.key')).toBe('visitor.key.PjqG-XG7sXJztW5PoR77ZvZexVYfCDLuIqRgtcDkqf0');
  });

  it('keeps purposes apart', () => {
    const other = new Signer('s'.repeat(40), 'purpose-b');
    expect(other.verify(sut.sign('value'))).toBeNull();
  });

  it('opens sealed payloads until they expire', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const sealed = sut.seal({ v: 'version' }, 60);
      expect(sut.open(sealed)).toMatchObject({ v: 'version' });
      vi.setSystemTime(new Date('2030-01-01T00:01:01Z'));
      expect(sut.open(sealed)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
