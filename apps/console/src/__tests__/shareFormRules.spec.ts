import { describe, expect, it } from 'vitest';
import {
  emptyShareForm,
  hasErrors,
  loginRequired,
  parseEmails,
  summarizeShare,
  toShareInput,
  validateShareForm,
  type ShareFormState,
} from '../composables/shareForm';

function form(change: Partial<ShareFormState>): ShareFormState {
  return { ...emptyShareForm(), ...change };
}

describe('validateShareForm', () => {
  it('accepts the defaults: every option off', () => {
    expect(hasErrors(validateShareForm(emptyShareForm()))).toBe(false);
  });

  it.each([
    [0, true],
    [1, false],
    [3650, false],
    [3651, true],
    ['7.5', true],
    ['', true],
  ])('expiresInDays %s → error %s', (days, error) => {
    expect(validateShareForm(form({ expiresEnabled: true, expiresInDays: days })).expiresInDays !== null).toBe(error);
  });

  it.each([
    ['abc', true],
    ['abcd', false],
    ['x'.repeat(32), false],
    ['x'.repeat(33), true],
  ])('password %s → error %s', (password, error) => {
    expect(validateShareForm(form({ passwordEnabled: true, password })).password !== null).toBe(error);
  });

  it('checks each cap against 1..9999', () => {
    const errors = validateShareForm(
      form({
        maxVisitsEnabled: true,
        maxVisits: 10000,
        perVisitorEnabled: true,
        perVisitorMaxVisits: 0,
        perLoginUserEnabled: true,
        perLoginUserMaxVisits: 9999,
      }),
    );
    expect(errors.maxVisits?.key).toBe('shareForm.errCap');
    expect(errors.perVisitorMaxVisits?.key).toBe('shareForm.errCap');
    expect(errors.perLoginUserMaxVisits).toBeNull();
  });

  it('ignores the total cap of a one-time link, which is always 1', () => {
    expect(validateShareForm(form({ oneTime: true, maxVisitsEnabled: true, maxVisits: 0 })).maxVisits).toBeNull();
  });

  it('limits the watermark to 80 characters, counting code points', () => {
    expect(validateShareForm(form({ watermarkEnabled: true, watermarkText: '😀'.repeat(80) })).watermarkText).toBeNull();
    expect(validateShareForm(form({ watermarkEnabled: true, watermarkText: 'x'.repeat(81) })).watermarkText).not.toBeNull();
  });

  it.each([
    ['ab', true],
    ['abc', false],
    ['Release_2025-v1', false],
    ['has space', true],
    ['ü-umlaut', true],
    ['x'.repeat(33), true],
  ])('slug %s → error %s', (slug, error) => {
    expect(validateShareForm(form({ slugEnabled: true, slug })).slug !== null).toBe(error);
  });

  it('needs valid e-mails in the allowlist and names the first bad one', () => {
    expect(validateShareForm(form({ allowlistEnabled: true, emailAllowlist: ' ' })).emailAllowlist?.key).toBe(
      'shareForm.errAllowlistEmpty',
    );
    const bad = validateShareForm(form({ allowlistEnabled: true, emailAllowlist: 'a@example.com, not-an-email' })).emailAllowlist;
    expect(bad).toEqual({ key: 'shareForm.errAllowlistEmail', params: { email: 'not-an-email' } });
  });
});

describe('toShareInput', () => {
  it('sends nothing for an untouched form, so the API defaults apply', () => {
    expect(toShareInput(emptyShareForm())).toEqual({});
  });

  it('sends the notification choice unless it is off', () => {
    expect(toShareInput(form({ notify: 'first' }))).toEqual({ notify: 'first' });
    expect(toShareInput(form({ notify: 'off' }))).toEqual({});
  });

  it('maps every option', () => {
    expect(
      toShareInput(
        form({
          expiresEnabled: true,
          expiresInDays: '30',
          passwordEnabled: true,
          password: 'open sesame',
          maxVisitsEnabled: true,
          maxVisits: 5,
          perVisitorEnabled: true,
          perVisitorMaxVisits: 2,
          watermarkEnabled: true,
          watermarkText: '  Confidential  ',
          copyProtectionEnabled: true,
          burnAfterReadEnabled: true,
          slugEnabled: true,
          slug: 'q3-report',
          lockedVersionId: 'v-1',
          oneSession: true,
        }),
      ),
    ).toEqual({
      expiresInDays: 30,
      password: 'open sesame',
      maxVisits: 5,
      perVisitorMaxVisits: 2,
      watermarkEnabled: true,
      watermarkText: 'Confidential',
      copyProtectionEnabled: true,
      burnAfterReadEnabled: true,
      slug: 'q3-report',
      lockedVersionId: 'v-1',
      oneSession: true,
    });
  });

  it('sends oneTime instead of a total cap', () => {
    expect(toShareInput(form({ oneTime: true, maxVisitsEnabled: true, maxVisits: 9 }))).toEqual({ oneTime: true });
  });

  it('turns on login when a per-account cap or an allowlist asks for it', () => {
    const allowlisted = form({ allowlistEnabled: true, emailAllowlist: 'a@example.com\nb@example.com;A@example.com' });
    expect(loginRequired(allowlisted)).toBe(true);
    expect(toShareInput(allowlisted)).toEqual({ requireLogin: true, emailAllowlist: ['a@example.com', 'b@example.com'] });
    expect(toShareInput(form({ perLoginUserEnabled: true, perLoginUserMaxVisits: 3 }))).toEqual({
      requireLogin: true,
      perLoginUserMaxVisits: 3,
    });
  });

  it('sends a null watermark text for the automatic watermark', () => {
    expect(toShareInput(form({ watermarkEnabled: true, watermarkText: '   ' }))).toEqual({
      watermarkEnabled: true,
      watermarkText: null,
    });
  });
});

describe('summarizeShare', () => {
  it('describes an open link', () => {
    expect(summarizeShare(emptyShareForm()).map((line) => line.key)).toEqual([
      'summary.anyone',
      'summary.neverExpires',
      'summary.latest',
    ]);
  });

  it('describes a guarded one-time link in the order a visitor meets the rules', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const lines = summarizeShare(
      form({
        passwordEnabled: true,
        password: 'abcd',
        oneTime: true,
        expiresEnabled: true,
        expiresInDays: 2,
        watermarkEnabled: true,
      }),
      now,
    );
    expect(lines.map((line) => line.key)).toEqual([
      'summary.anyone',
      'summary.password',
      'summary.reveal',
      'summary.expires',
      'summary.oneTime',
      'summary.watermarkAuto',
      'summary.latest',
    ]);
    expect(lines[3]!.params).toEqual({ days: 2, date: new Date('2026-01-03T00:00:00Z') });
  });

  it('names the allowlisted accounts', () => {
    const lines = summarizeShare(form({ allowlistEnabled: true, emailAllowlist: 'a@x.io b@x.io c@x.io d@x.io' }));
    expect(lines[0]).toEqual({ key: 'summary.allowlist', params: { count: 4, list: 'a@x.io, b@x.io, c@x.io…' } });
  });
});

describe('parseEmails', () => {
  it('splits on commas, semicolons and whitespace and drops duplicates case-insensitively', () => {
    expect(parseEmails('a@x.io,  B@x.io\n\nb@x.io;c@x.io')).toEqual(['a@x.io', 'B@x.io', 'c@x.io']);
  });
});
