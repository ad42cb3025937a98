import { describe, expect, it } from 'vitest';
import { PASS } from './gate-policy.js';
import { ScanStatusPolicy } from './scan-status.policy.js';
import { aVisit } from './visit.fixture.js';

describe(ScanStatusPolicy.name, () => {
  const sut = new ScanStatusPolicy();

  it.each([
    ['CLEAN', PASS],
    ['INFECTED', { kind: 'quarantined' }],
    ['PENDING', { kind: 'scanning' }],
    ['SCAN_ERROR', { kind: 'scan-failed' }],
    [null, { kind: 'scan-failed' }],
  ] as const)('answers %s with %o', (scanStatus, step) => {
    expect(sut.check(aVisit({ share: { scanStatus } }))).toEqual(step);
  });
});
