import { LIMITS, type Schemas } from '@sharedown/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from './errors.js';

export type RequestInput = Schemas['CreateRequestDto'];
export type RequestState = Schemas['RequestState'];

/** The states `requests ls --state` filters by, as the contract names them. */
export const REQUEST_STATES = ['OPEN', 'CLOSED', 'EXPIRED', 'FULL'] as const satisfies readonly RequestState[];

/** The limits of a request beside LIMITS; the service checks them, the help states them. */
const MAX_UPLOADS = { min: 1, max: 1000, default: 10 };
const TITLE_MAX = 200;

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
}

/** A state in any case: `open` is OPEN. */
export function requestState(value: string): RequestState {
  const state = value.trim().toUpperCase();
  if (!(REQUEST_STATES as readonly string[]).includes(state)) {
    throw new InvalidArgumentError(`expected one of ${REQUEST_STATES.join(', ')}.`);
  }
  return state as RequestState;
}

function emails(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((email) => email.trim())
      .filter(Boolean),
  ];
}

/** The flags of `requests create`, one per field of the POST /requests body. */
export function addRequestOptions(command: Command): Command {
  const { expiresInDays, sharePassword, uploadBytes, emailAllowlist } = LIMITS;
  return command
    .addOption(new Option('--title <title>', `what you ask for (1..${TITLE_MAX} characters), instead of the argument`))
    .addOption(new Option('--instructions <markdown>', 'Markdown shown above the upload form (at most 5000 characters)'))
    .addOption(
      new Option(
        '--folder <id>',
        'folder the uploads land in (default: a new folder named after the title, inside a top-level folder "Requests")',
      ),
    )
    .addOption(
      new Option(
        '--max-uploads <n>',
        `uploads accepted in all (${MAX_UPLOADS.min}..${MAX_UPLOADS.max}, default ${MAX_UPLOADS.default})`,
      ).argParser(wholeNumber),
    )
    .addOption(
      new Option('--max-bytes <n>', `bytes of one upload at most (1..${uploadBytes}, the default)`).argParser(wholeNumber),
    )
    .addOption(
      new Option(
        '--expires-in-days <days>',
        `stop taking uploads after this many days (${expiresInDays.min}..${expiresInDays.max}; default: never)`,
      ).argParser(wholeNumber),
    )
    .addOption(
      new Option(
        '--password <password>',
        `uploaders must enter this password (${sharePassword.min}..${sharePassword.max} characters)`,
      ),
    )
    .addOption(
      new Option(
        '--allow <email>',
        `only uploaders who prove this address with an e-mail code may upload (repeatable or comma-separated; at most ${emailAllowlist.max})`,
      ).argParser(emails),
    )
    .addOption(
      new Option(
        '--notify <when>',
        'tell me about uploads: on the first, on every one (the default), in a daily digest, or never',
      ).choices(['first', 'every', 'daily', 'off']),
    );
}

export interface RequestFlags {
  title?: string;
  instructions?: string;
  folder?: string;
  maxUploads?: number;
  maxBytes?: number;
  expiresInDays?: number;
  password?: string;
  allow?: string[];
  notify?: RequestInput['notify'];
}

/** The POST /requests body of `requests create [title] [flags]`: only what was given, so the service defaults apply. */
export function requestInputOf(title: string | undefined, flags: RequestFlags): RequestInput {
  if (title !== undefined && flags.title !== undefined) {
    throw new UsageError('give the title once: as the argument or with --title, not both');
  }
  const named = title ?? flags.title;
  if (named === undefined) throw new UsageError('give a title: sharedown requests create "<title>" (or --title <title>)');
  const input: RequestInput = { title: named };
  if (flags.instructions !== undefined) input.instructions = flags.instructions;
  if (flags.folder !== undefined) input.folderId = flags.folder;
  if (flags.maxUploads !== undefined) input.maxUploads = flags.maxUploads;
  if (flags.maxBytes !== undefined) input.maxBytes = flags.maxBytes;
  if (flags.expiresInDays !== undefined) input.expiresInDays = flags.expiresInDays;
  if (flags.password !== undefined) input.password = flags.password;
  if (flags.allow !== undefined) input.emailAllowlist = flags.allow;
  if (flags.notify !== undefined) input.notify = flags.notify;
  return input;
}
