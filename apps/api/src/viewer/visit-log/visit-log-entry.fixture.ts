import { randomUUID } from 'node:crypto';
import type { VisitLogEntry } from './visit-log.repository.js';

/** A visit log row as an anonymous desktop visit of `shareId` leaves it now; `overrides` change any field. */
export function testVisitLogEntry(shareId: string, overrides: Partial<VisitLogEntry> = {}): VisitLogEntry {
  return {
    id: randomUUID(),
    shareId,
    at: new Date(),
    visitorId: 'v1',
    ipPrefix: '203.0.113.0/24',
    referer: null,
    userAgent: 'Mozilla/5.0',
    browser: null,
    os: null,
    device: 'desktop',
    loginEmail: null,
    automated: false,
    measured: true,
    notify: 'off',
    visitCount: 1,
    uniqueVisitCount: 1,
    ...overrides,
  };
}
