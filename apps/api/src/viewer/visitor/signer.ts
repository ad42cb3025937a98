import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * HMAC-SHA256 signatures for viewer cookies and tickets. Each purpose gets its own key derived
 * from the session secret, so a value signed for one purpose never verifies for another.
 */
export class Signer {
  /** A KeyObject, not the key's bytes: given bytes, createHmac copies them into a key of its own on every call. */
  private readonly key: KeyObject;

  constructor(secret: string, purpose: string) {
    this.key = createSecretKey(createHmac('sha256', secret).update(`sharedown-viewer:${purpose}`).digest());
  }

  digest(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }

  /** `<value>.<signature>`; the last dot separates, so the value itself may contain dots. */
  sign(value: string): string {
    return `${value}.${this.digest(value)}`;
  }

  /** The signed value, or null when the signature is missing or wrong. */
  verify(signed: string | undefined): string | null {
    if (!signed || signed.length > 4096) return null;
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.digest(value), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
  }

  /** A signed, expiring payload: `<base64url json>.<signature>`. */
  seal(payload: Record<string, unknown>, ttlSeconds: number): string {
    const body = Buffer.from(JSON.stringify({ ...payload, x: Math.floor(Date.now() / 1000) + ttlSeconds })).toString('base64url');
    return this.sign(body);
  }

  /** The payload of a sealed value that is authentic and not expired, else null. */
  open<T extends Record<string, unknown>>(sealed: string | undefined): T | null {
    const body = this.verify(sealed);
    if (body === null) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { x?: unknown };
      if (typeof payload.x !== 'number' || payload.x < Date.now() / 1000) return null;
      return payload;
    } catch {
      return null;
    }
  }
}
