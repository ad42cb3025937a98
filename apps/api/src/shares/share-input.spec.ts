import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { AppError } from '../common/app-error.js';
import { parseShareField, settingsOf } from './share-input.js';

async function refusal(raw: unknown): Promise<string> {
  try {
    await parseShareField(typeof raw === 'string' ? raw : JSON.stringify(raw));
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION');
    return (error as AppError).message;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe(parseShareField.name, () => {
  it('accepts an empty policy and every field at its limits', async () => {
    expect((await parseShareField('{}')).maxVisits).toBeNull();
    const settings = await parseShareField(
      JSON.stringify({
        expiresInDays: 3650,
        password: 'x'.repeat(32),
        maxVisits: 9999,
        perVisitorMaxVisits: 1,
        perLoginUserMaxVisits: 9999,
        oneTime: false,
        requireLogin: false,
        watermarkEnabled: true,
        watermarkText: 'w'.repeat(80),
        copyProtectionEnabled: true,
        burnAfterReadEnabled: true,
        slug: 'a-b_C9',
        lockedVersionId: '00000000-0000-4000-8000-000000000000',
        oneSession: true,
        emailAllowlist: ['Ann@Example.com', 'ann@example.com'],
      }),
    );
    expect(settings).toMatchObject({ expiresInDays: 3650, maxVisits: 9999, slug: 'a-b_C9', requireLogin: true });
    expect(settings.emailAllowlist).toEqual(['ann@example.com']);
  });

  // The one table of ShareInput refusals: POST /shares, the console route and the upload's share
  // field all validate with these rules (the e2e suite checks that each route answers with them).
  it.each([
    [{ expiresInDays: 0 }, 'expiresInDays'],
    [{ expiresInDays: 3651 }, 'expiresInDays'],
    [{ expiresInDays: 1.5 }, 'expiresInDays'],
    [{ expiresInDays: '7' }, 'expiresInDays'],
    [{ password: 'abc' }, 'password'],
    [{ password: 'x'.repeat(33) }, 'password'],
    [{ password: 1234 }, 'password'],
    [{ maxVisits: 0 }, 'maxVisits'],
    [{ maxVisits: 10000 }, 'maxVisits'],
    [{ maxVisits: 2.5 }, 'maxVisits'],
    [{ perVisitorMaxVisits: -1 }, 'perVisitorMaxVisits'],
    [{ perVisitorMaxVisits: 0 }, 'perVisitorMaxVisits'],
    [{ perLoginUserMaxVisits: 10000 }, 'perLoginUserMaxVisits'],
    [{ oneTime: 'yes' }, 'oneTime'],
    [{ oneTime: null }, 'oneTime'],
    [{ requireLogin: 1 }, 'requireLogin'],
    [{ copyProtectionEnabled: 1 }, 'copyProtectionEnabled'],
    [{ burnAfterReadEnabled: null }, 'burnAfterReadEnabled'],
    [{ oneSession: 'yes' }, 'oneSession'],
    [{ watermarkText: 'w'.repeat(81) }, 'watermarkText'],
    [{ watermarkText: 'nul\u0000byte' }, 'watermarkText'],
    [{ watermarkText: 'line\nbreak' }, 'watermarkText'],
    [{ slug: 'ab' }, 'slug'],
    [{ slug: 'a'.repeat(33) }, 'slug'],
    [{ slug: 'has space' }, 'slug'],
    [{ slug: 'with/slash' }, 'slug'],
    [{ slug: 'ünï' }, 'slug'],
    [{ lockedVersionId: 42 }, 'lockedVersionId'],
    [{ emailAllowlist: 'a@example.com' }, 'emailAllowlist'],
    [{ emailAllowlist: ['not-an-email'] }, 'emailAllowlist'],
    [{ agreement: { text: 'x'.repeat(20_001) } }, 'agreement.text'],
    [{ agreement: { text: '' } }, 'agreement.text'],
    [{ agreement: { text: ' \n\t ' } }, 'agreement.text'],
    [{ agreement: { requireName: true } }, 'agreement.text'],
    [{ agreement: { text: 'x', requireName: 'yes' } }, 'agreement.requireName'],
    [{ agreement: 'I agree' }, 'agreement'],
    [{ agreement: [{ text: 'x' }] }, 'agreement'],
    [{ surprise: true }, 'surprise'],
    [{ fileId: 'x' }, 'fileId'],
  ])('refuses %j naming %s', async (input, field) => {
    expect(await refusal(input)).toContain(field);
  });

  it('refuses a field that is not a JSON object', async () => {
    expect(await refusal('not json')).toContain('share');
    expect(await refusal('[1]')).toContain('share');
    expect(await refusal('null')).toContain('share');
  });

  it('refuses deep nesting before validating it, wherever it sits', async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(await refusal('{"a":'.repeat(3000) + '1' + '}'.repeat(3000))).toBe('share 字段嵌套层级过深：最多 32 层');
    expect(await refusal(`{"emailAllowlist":${deep(3000)}}`)).toBe('share 字段嵌套层级过深：最多 32 层');
    expect(await refusal(deep(100_000))).toBe('share 字段嵌套层级过深：最多 32 层');
    // Within the limit the ordinary rules answer.
    expect(await refusal(`{"emailAllowlist":${deep(31)}}`)).toContain('emailAllowlist');
  });
});

describe(settingsOf.name, () => {
  it('makes a one-time link a single visit whatever maxVisits says', () => {
    expect(settingsOf({ oneTime: true, maxVisits: 50 })).toMatchObject({ oneTime: true, maxVisits: 1 });
  });

  it('derives the login requirement from a per-login cap or an allowlist', () => {
    expect(settingsOf({}).requireLogin).toBe(false);
    expect(settingsOf({ perLoginUserMaxVisits: 3 }).requireLogin).toBe(true);
    expect(settingsOf({ emailAllowlist: ['a@example.com'] }).requireLogin).toBe(true);
    expect(settingsOf({ emailAllowlist: [] })).toMatchObject({ requireLogin: false, emailAllowlist: null });
  });

  it('keeps an agreement with its name rule, and none when null or absent', () => {
    expect(settingsOf({ agreement: { text: '# NDA' } }).agreement).toEqual({ text: '# NDA', requireName: false });
    expect(settingsOf({ agreement: { text: 'T', requireName: true } }).agreement).toEqual({ text: 'T', requireName: true });
    expect(settingsOf({ agreement: null }).agreement).toBeNull();
    expect(settingsOf({}).agreement).toBeNull();
  });

  it('treats null and blank values as not set', () => {
    expect(settingsOf({ expiresInDays: null, password: null, slug: null, watermarkText: '  ' })).toMatchObject({
      expiresInDays: null,
      password: null,
      slug: null,
      watermarkText: null,
    });
  });
});
