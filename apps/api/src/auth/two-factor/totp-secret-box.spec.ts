import { describe, expect, it } from 'vitest';
import { TotpSecretBox } from './totp-secret-box.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ALICE = '6f1c1f3e-0000-4000-8000-000000000001';
const BOB = '6f1c1f3e-0000-4000-8000-000000000002';

describe(TotpSecretBox.name, () => {
  it('opens what it sealed for the same account', () => {
    const sut = new TotpSecretBox('session secret');
    expect(sut.open(sut.seal(SECRET, ALICE), ALICE)).toBe(SECRET);
  });

  it('never stores the secret in the clear, and seals it differently every time', () => {
    const sut = new TotpSecretBox('session secret');
    const first = sut.seal(SECRET, ALICE);
    expect(first).not.toContain(SECRET);
    expect(Buffer.from(first.split('.')[3]!, 'base64url').toString('utf8')).not.toContain('JBSW');
    expect(sut.seal(SECRET, ALICE)).not.toBe(first);
  });

  it('refuses a value moved onto another account', () => {
    const sut = new TotpSecretBox('session secret');
    expect(sut.open(sut.seal(SECRET, ALICE), BOB)).toBeNull();
  });

  it('refuses a value sealed under another session secret', () => {
    const sealed = new TotpSecretBox('old secret').seal(SECRET, ALICE);
    expect(new TotpSecretBox('new secret').open(sealed, ALICE)).toBeNull();
  });

  it('refuses a tampered or malformed value', () => {
    const sut = new TotpSecretBox('session secret');
    const [version, iv, tag, body] = sut.seal(SECRET, ALICE).split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0]! ^= 1;
    expect(sut.open([version, iv, tag, flipped.toString('base64url')].join('.'), ALICE)).toBeNull();
    for (const bad of ['', 'v1', 'v2.a.b.c', `${version}.${iv}.${tag}`, `${version}.${iv}.${tag}.${body}.x`, SECRET]) {
      expect(sut.open(bad, ALICE)).toBeNull();
    }
  });
});
