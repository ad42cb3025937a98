import { randomInt } from 'node:crypto';
import { sha256Hex } from '../secrets.js';

export const RECOVERY_CODE_COUNT = 10;

// No 0/o, 1/l/i: codes are read off paper and typed back by hand. 31 symbols, 10 of them ≈ 49.5 bits.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** One code as shown to the owner: `xxxxx-xxxxx`. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** What a person typed, without case, spaces or dashes. */
export function normalizeCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]+/g, '');
}

export function isTotpShaped(normalized: string): boolean {
  return /^[0-9]{6}$/.test(normalized);
}

export function isRecoveryShaped(normalized: string): boolean {
  return normalized.length === LENGTH && [...normalized].every((c) => ALPHABET.includes(c));
}

/** Stored form: codes carry about 50 random bits, so a fast digest suffices (like API tokens). */
export function recoveryCodeDigest(normalized: string): string {
  return sha256Hex(`recovery:${normalized}`);
}
