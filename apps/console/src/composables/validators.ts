/** Client-side checks with the API's limits, so mistakes show beside the field before a round trip. */
import { LIMITS } from '@sharedown/contract';

// The service's limits and patterns come from the contract; forms import them from here with the checks.
export { LIMITS, SEGMENT_PATTERN, SLUG_PATTERN, WATERMARK_TEXT_PATTERN } from '@sharedown/contract';

// The WHATWG e-mail rule browsers use for <input type=email>.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= LIMITS.email.max && EMAIL.test(value);
}

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
