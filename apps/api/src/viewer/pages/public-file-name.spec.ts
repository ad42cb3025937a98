import { describe, expect, it } from 'vitest';
import { publicFileName } from './public-file-name.js';

const open = { fileName: 'plan.md', revoked: false, requireLogin: false, emailAllowlist: null, perLoginUserMaxVisits: null };

describe(publicFileName.name, () => {
  it('names the file of a link anyone may open', () => {
    expect(publicFileName(open)).toBe('plan.md');
    expect(publicFileName({ ...open, emailAllowlist: [] })).toBe('plan.md');
  });

  it.each([
    ['the login rule', { requireLogin: true }],
    ['an allowlist', { emailAllowlist: ['a@example.com'] }],
    ['a per-account cap', { perLoginUserMaxVisits: 3 }],
    ['a revoked link', { revoked: true }],
  ])('keeps the name of %s to itself', (_case, change) => {
    expect(publicFileName({ ...open, ...change })).toBeNull();
  });
});
