/** Client-side checks mirroring the API's limits, so mistakes show beside the field before a round trip. */

// The WHATWG e-mail rule browsers use for <input type=email>.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export const SEGMENT_PATTERN = /^[a-z0-9][a-z0-9_-]{2,31}$/;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

export const LIMITS = {
  accountPassword: { min: 8, max: 128 },
  tokenName: { min: 1, max: 100 },
  tokenRate: { min: 1, max: 600, default: 5 },
  tokenExpiryDays: { min: 1, max: 3650 },
  expiresInDays: { min: 1, max: 3650 },
  sharePassword: { min: 4, max: 32 },
  visits: { min: 1, max: 9999 },
  watermarkText: { max: 80 },
  validateChars: 1_048_576,
  uploadBytes: 10 * 1024 * 1024,
  webhookUrl: 2048,
  webhooksActive: 10,
} as const;

/** An integer typed into a number field, or null when it is not one (empty is handled by callers). */
export function parseInteger(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!/^-?\d+$/.test(text)) return null;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : null;
}

export function inRange(value: number, min: number, max: number): boolean {
  return value >= min && value <= max;
}

/** Mirrors the server's shape checks; reachability (private addresses) is only known to the server. */
export function webhookUrlProblem(value: string): 'required' | 'scheme' | 'credentials' | 'length' | null {
  const trimmed = value.trim();
  if (!trimmed) return 'required';
  if (trimmed.length > LIMITS.webhookUrl) return 'length';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'scheme';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'scheme';
  if (parsed.username || parsed.password) return 'credentials';
  return null;
}
