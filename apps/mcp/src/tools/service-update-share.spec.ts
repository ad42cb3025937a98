import { describe, expect, it } from 'vitest';
import { LocalValidationError } from '../api-errors.js';
import { shareChangesOf } from './service-update-share.js';

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
