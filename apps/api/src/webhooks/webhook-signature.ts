import { createHmac } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret>`. */
export function signatureOf(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
