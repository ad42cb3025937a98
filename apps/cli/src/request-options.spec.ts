import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { addRequestOptions, requestInputOf, requestState, type RequestFlags } from './request-options.js';

function parse(args: string[]) {
  let captured: { title?: string; flags: RequestFlags } = { flags: {} };
  const command = addRequestOptions(new Command('create').argument('[title]'))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .action((title: string | undefined, flags: RequestFlags) => {
      captured = { title, flags };
    });
  command.parse(args, { from: 'user' });
  return requestInputOf(captured.title, captured.flags);
}

describe(requestInputOf.name, () => {
  it('sends the title alone for no flags, so the service defaults apply', () => {
    expect(parse(['Signed policies'])).toEqual({ title: 'Signed policies' });
    expect(parse(['--title', 'Cover letter'])).toEqual({ title: 'Cover letter' });
  });

  it('maps every flag to its field of the POST /requests body', () => {
    expect(
      parse([
        'Audit 2026',
        '--instructions',
        'Both **policies**',
        '--folder',
        'd1',
        '--max-uploads',
        '3',
        '--max-bytes',
        '50000',
        '--expires-in-days',
        '14',
        '--password',
        'hunter22',
        '--allow',
        'ann@example.com, bob@example.com',
        '--allow',
        'cy@example.com',
        '--notify',
        'daily',
      ]),
    ).toEqual({
      title: 'Audit 2026',
      instructions: 'Both **policies**',
      folderId: 'd1',
      maxUploads: 3,
      maxBytes: 50000,
      expiresInDays: 14,
      password: 'hunter22',
      emailAllowlist: ['ann@example.com', 'bob@example.com', 'cy@example.com'],
      notify: 'daily',
    });
  });

  it('refuses no title, and a title given twice', () => {
    expect(() => parse([])).toThrow(UsageError);
    expect(() => parse(['A', '--title', 'B'])).toThrow(/not both/);
  });

  it('refuses a number that is not whole and a notify choice that does not exist, before any call', () => {
    expect(() => parse(['A', '--max-uploads', 'ten'])).toThrow(CommanderError);
    expect(() => parse(['A', '--max-bytes', '1.5'])).toThrow(CommanderError);
    expect(() => parse(['A', '--notify', 'hourly'])).toThrow(CommanderError);
  });
});

describe(requestState.name, () => {
  it('reads a state in any case and refuses others', () => {
    expect(requestState('open')).toBe('OPEN');
    expect(requestState(' Full ')).toBe('FULL');
    expect(() => requestState('gone')).toThrow(/OPEN, CLOSED, EXPIRED, FULL/);
  });
});
