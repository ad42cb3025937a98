import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import {
  addShareEditOptions,
  addShareOptions,
  agreementNeedsCurrent,
  agreementUpdateOf,
  shareInputOf,
  shareUpdateOf,
} from './share-options.js';

function parse(args: string[]) {
  let captured: Record<string, unknown> = {};
  const command = addShareOptions(new Command('create'))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .action((options: Record<string, unknown>) => {
      captured = options;
    });
  command.parse(args, { from: 'user' });
  return shareInputOf(captured);
}

describe(shareInputOf.name, () => {
  it('sends nothing for no flags, so the service defaults apply', () => {
    expect(parse([])).toEqual({});
  });

  it('maps every flag to its ShareInput field', () => {
    expect(
      parse([
        '--expires-in-days',
        '30',
        '--password',
        'pass1234',
        '--max-visits',
        '10',
        '--per-visitor-max-visits',
        '2',
        '--per-login-user-max-visits',
        '3',
        '--one-time',
        '--require-login',
        '--watermark-enabled',
        '--watermark-text',
        'DRAFT',
        '--copy-protection-enabled',
        '--burn-after-read-enabled',
        '--slug',
        'my-doc',
        '--locked-version-id',
        'v1',
        '--one-session',
        '--email-allowlist',
        'a@x.io, b@x.io',
        '--email-allowlist',
        'c@x.io',
        '--notify',
        'daily',
      ]),
    ).toEqual({
      expiresInDays: 30,
      password: 'pass1234',
      maxVisits: 10,
      perVisitorMaxVisits: 2,
      perLoginUserMaxVisits: 3,
      oneTime: true,
      requireLogin: true,
      watermarkEnabled: true,
      watermarkText: 'DRAFT',
      copyProtectionEnabled: true,
      burnAfterReadEnabled: true,
      slug: 'my-doc',
      lockedVersionId: 'v1',
      oneSession: true,
      emailAllowlist: ['a@x.io', 'b@x.io', 'c@x.io'],
      notify: 'daily',
    });
  });

  it('refuses a --notify choice the service does not know', () => {
    expect(() => parse(['--notify', 'weekly'])).toThrow(/Allowed choices are first, every, daily, off/);
  });

  it('"never" means no expiry', () => {
    expect(parse(['--expires-in-days', 'never'])).toEqual({ expiresInDays: null });
  });

  it('watermark text turns the watermark on', () => {
    expect(parse(['--watermark-text', 'X'])).toEqual({ watermarkText: 'X', watermarkEnabled: true });
  });

  it.each([
    ['--max-visits', 'many'],
    ['--expires-in-days', '1.5'],
  ])('refuses %s %s as a usage error', (flag, value) => {
    expect(() => parse([flag, value])).toThrow(/expected a whole number/);
  });
});

describe(shareUpdateOf.name, () => {
  function edit(args: string[]) {
    let captured: Record<string, unknown> = {};
    const command = addShareEditOptions(new Command('edit'))
      .exitOverride()
      .configureOutput({ writeErr: () => undefined })
      .action((options: Record<string, unknown>) => {
        captured = options;
      });
    command.parse(args, { from: 'user' });
    return shareUpdateOf(captured);
  }

  it('sends nothing for no flags, so every policy stays', () => {
    expect(edit([])).toEqual({});
  });

  it('sets the policies named, and only those', () => {
    expect(
      edit([
        '--max-visits',
        '5',
        '--password',
        'pass1234',
        '--expires-in-days',
        '3',
        '--per-visitor-max-visits',
        '2',
        '--per-login-user-max-visits',
        '1',
        '--require-login',
        '--copy-protection-enabled',
        '--burn-after-read-enabled',
        '--one-session',
        '--email-allowlist',
        'a@x.io,b@x.io',
        '--notify',
        'every',
      ]),
    ).toEqual({
      maxVisits: 5,
      password: 'pass1234',
      expiresInDays: 3,
      perVisitorMaxVisits: 2,
      perLoginUserMaxVisits: 1,
      requireLogin: true,
      copyProtectionEnabled: true,
      burnAfterReadEnabled: true,
      oneSession: true,
      emailAllowlist: ['a@x.io', 'b@x.io'],
      notify: 'every',
    });
  });

  it('--no-… removes a value with null, an allowlist with [], notifications with off, and turns a switch off', () => {
    expect(
      edit([
        '--no-expires-in-days',
        '--no-password',
        '--no-max-visits',
        '--no-per-visitor-max-visits',
        '--no-per-login-user-max-visits',
        '--no-watermark-text',
        '--no-require-login',
        '--no-watermark-enabled',
        '--no-copy-protection-enabled',
        '--no-burn-after-read-enabled',
        '--no-one-session',
        '--no-email-allowlist',
        '--no-notify',
      ]),
    ).toEqual({
      expiresInDays: null,
      password: null,
      maxVisits: null,
      perVisitorMaxVisits: null,
      perLoginUserMaxVisits: null,
      watermarkText: null,
      requireLogin: false,
      watermarkEnabled: false,
      copyProtectionEnabled: false,
      burnAfterReadEnabled: false,
      oneSession: false,
      emailAllowlist: [],
      notify: 'off',
    });
  });

  it('"never" removes the expiry too; watermark text turns the watermark on unless told otherwise', () => {
    expect(edit(['--expires-in-days', 'never'])).toEqual({ expiresInDays: null });
    expect(edit(['--watermark-text', 'DRAFT'])).toEqual({ watermarkText: 'DRAFT', watermarkEnabled: true });
    expect(edit(['--watermark-text', 'DRAFT', '--no-watermark-enabled'])).toEqual({
      watermarkText: 'DRAFT',
      watermarkEnabled: false,
    });
  });

  it('the last of a flag and its --no-… wins', () => {
    expect(edit(['--max-visits', '5', '--no-max-visits'])).toEqual({ maxVisits: null });
    expect(edit(['--no-max-visits', '--max-visits', '5'])).toEqual({ maxVisits: 5 });
    expect(edit(['--no-email-allowlist', '--email-allowlist', 'a@x.io'])).toEqual({ emailAllowlist: ['a@x.io'] });
  });

  it.each(['--one-time', '--slug', '--locked-version-id'])('has no %s: the link itself cannot change', (flag) => {
    expect(() => edit([flag, 'x'])).toThrow(/unknown option/);
  });

  it('refuses a non-number for a cap', () => {
    expect(() => edit(['--max-visits', 'lots'])).toThrow(/expected a whole number/);
  });
});

describe(agreementUpdateOf.name, () => {
  function options(args: string[]): Record<string, unknown> {
    let captured: Record<string, unknown> = {};
    addShareEditOptions(new Command('edit'))
      .exitOverride()
      .configureOutput({ writeErr: () => undefined })
      .action((given: Record<string, unknown>) => {
        captured = given;
      })
      .parse(args, { from: 'user' });
    return captured;
  }
  const current = { text: 'Old terms', requireName: true };

  it('sends the agreement only when an agreement flag is given', () => {
    expect(agreementUpdateOf(options(['--max-visits', '3']), current)).toBeUndefined();
    expect(agreementNeedsCurrent(options(['--max-visits', '3']))).toBe(false);
  });

  it('removes it with --no-agreement', () => {
    expect(agreementUpdateOf(options(['--no-agreement']), current)).toBeNull();
  });

  it('keeps the name rule with a new text, and the text with a new name rule', () => {
    const text = options(['--agreement', 'New terms']);
    expect(agreementNeedsCurrent(text)).toBe(true);
    expect(agreementUpdateOf(text, current)).toEqual({ text: 'New terms', requireName: true });
    const rule = options(['--no-agreement-require-name']);
    expect(agreementUpdateOf(rule, current)).toEqual({ text: 'Old terms', requireName: false });
    const both = options(['--agreement', 'New', '--agreement-require-name']);
    expect(agreementNeedsCurrent(both)).toBe(false);
    expect(agreementUpdateOf(both, null)).toEqual({ text: 'New', requireName: true });
  });

  it('refuses a name rule for a share without an agreement', () => {
    expect(() => agreementUpdateOf(options(['--agreement-require-name']), null)).toThrow(UsageError);
  });
});

describe('the agreement flags of create', () => {
  it('send the text and the name rule', () => {
    expect(parse(['--agreement', 'Terms', '--agreement-require-name'])).toEqual({
      agreement: { text: 'Terms', requireName: true },
    });
    expect(parse(['--agreement', 'Terms'])).toEqual({ agreement: { text: 'Terms', requireName: false } });
  });

  it('refuse a name rule without a text, and a text given twice', () => {
    expect(() => parse(['--agreement-require-name'])).toThrow(UsageError);
    expect(() => parse(['--agreement', 'a', '--agreement-file', 'b.md'])).toThrow();
  });
});
