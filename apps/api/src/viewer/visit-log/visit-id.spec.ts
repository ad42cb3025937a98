import { describe, expect, it } from 'vitest';
import { newVisitId } from './visit-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newVisitId', () => {
  it('is a UUIDv7 carrying the visit time in its first 48 bits', () => {
    const at = new Date('2026-11-29T10:00:00.123Z');
    const id = newVisitId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at.getTime());
  });

  it('never repeats across many pool refills, and sorts by time across milliseconds', () => {
    const ids: string[] = [];
    const start = Date.parse('2026-11-29T10:00:00Z');
    for (let i = 0; i < 5_000; i++) ids.push(newVisitId(new Date(start + Math.floor(i / 10))));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 10; i < ids.length; i += 10) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });
});
