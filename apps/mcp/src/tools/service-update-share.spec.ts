import { describe, expect, it } from 'vitest';
import { LocalValidationError } from '../api-errors.js';
import { shareChangesOf, updateShareInputSchema } from './service-update-share.js';

describe(shareChangesOf.name, () => {
  it('sends only the policies named', () => {
    expect(shareChangesOf({ maxVisits: 3, watermarkEnabled: false, password: undefined })).toEqual({
      maxVisits: 3,
      watermarkEnabled: false,
    });
  });

  it('keeps null, which removes a limit', () => {
    expect(shareChangesOf({ maxVisits: null, expiresInDays: null })).toEqual({ maxVisits: null, expiresInDays: null });
  });

  it('keeps an empty allowlist, which clears it', () => {
    expect(shareChangesOf({ emailAllowlist: [] })).toEqual({ emailAllowlist: [] });
  });

  it('refuses a change of nothing, naming what can change', () => {
    expect(() => shareChangesOf({})).toThrow(LocalValidationError);
    expect(() => shareChangesOf({ password: undefined })).toThrow(/maxVisits/);
  });
});

describe('updateShareInputSchema', () => {
  it('takes shareId and options', () => {
    expect(updateShareInputSchema.parse({ shareId: 's1', options: { maxVisits: 2, notify: 'daily' } })).toEqual({
      shareId: 's1',
      options: { maxVisits: 2, notify: 'daily' },
    });
  });

  it('refuses the flat policies of its earlier form, and options missing', () => {
    expect(updateShareInputSchema.safeParse({ shareId: 's1', maxVisits: 2 }).success).toBe(false);
    expect(updateShareInputSchema.safeParse({ shareId: 's1', options: {}, password: null }).success).toBe(false);
  });

  it('refuses in options what a live link keeps: the slug, one-time use and the version pin', () => {
    for (const fixed of [{ slug: 'abc' }, { oneTime: true }, { lockedVersionId: 'v1' }]) {
      expect(updateShareInputSchema.safeParse({ shareId: 's1', options: fixed }).success, JSON.stringify(fixed)).toBe(false);
    }
  });
});
