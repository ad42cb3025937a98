import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who may read /metrics: only a request carrying `Authorization: Bearer <METRICS_TOKEN>`. Both
 * sides are hashed first, so the comparison takes the same time whatever the length or the first
 * differing byte of a guess. Without METRICS_TOKEN nobody may.
 */
export class MetricsAccess {
  private readonly expected: Buffer | null;

  constructor(token: string | undefined) {
    this.expected = token ? digest(token) : null;
  }

  get enabled(): boolean {
    return this.expected !== null;
  }

  allows(authorization: string | string[] | undefined): boolean {
    if (!this.expected || typeof authorization !== 'string') return false;
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match) return false;
    return timingSafeEqual(digest(match[1]!), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
