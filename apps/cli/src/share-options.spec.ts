import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addShareOptions, shareInputOf } from './share-options.js';

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
