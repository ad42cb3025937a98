import { LIMITS, type ShareInput } from '@sharedown/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';

// The service validates ranges and formats; the help text states them.
const { expiresInDays, sharePassword, visits, watermarkText } = LIMITS;
const visitRange = `${visits.min}..${visits.max}`;

function integer(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
}

const NEVER = 'never';

// Commander does not keep a null from a parser, so "never" travels as itself until shareInputOf.
function daysOrNever(value: string): number | typeof NEVER {
  return value.trim().toLowerCase() === NEVER ? NEVER : integer(value);
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

/** One flag per ShareInput field, named after it in kebab case. */
export function addShareOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--expires-in-days <days>',
        `link expires after this many days (${expiresInDays.min}..${expiresInDays.max}), or "never"`,
      ).argParser(daysOrNever),
    )
    .addOption(
      new Option(
        '--password <password>',
        `visitors must enter this password (${sharePassword.min}..${sharePassword.max} characters)`,
      ),
    )
    .addOption(new Option('--max-visits <n>', `total successful views allowed (${visitRange})`).argParser(integer))
    .addOption(
      new Option('--per-visitor-max-visits <n>', `views allowed per distinct visitor (${visitRange})`).argParser(integer),
    )
    .addOption(
      new Option(
        '--per-login-user-max-visits <n>',
        `views allowed per logged-in account (${visitRange}); visitors must log in`,
      ).argParser(integer),
    )
    .addOption(new Option('--one-time', 'single view only (forces max visits to 1)'))
    .addOption(new Option('--require-login', 'visitors must be logged in to the service'))
    .addOption(new Option('--watermark-enabled', 'overlay a watermark on the rendered page'))
    .addOption(
      new Option(
        '--watermark-text <text>',
        `watermark text, at most ${watermarkText.max} characters (implies --watermark-enabled)`,
      ),
    )
    .addOption(new Option('--copy-protection-enabled', 'block copy, selection and right-click'))
    .addOption(new Option('--burn-after-read-enabled', 'content scrolled past stays hidden'))
    .addOption(new Option('--slug <slug>', 'custom short name for the link (3..32 of A-Z a-z 0-9 _ -)'))
    .addOption(new Option('--locked-version-id <id>', 'pin the share to one file version'))
    .addOption(new Option('--one-session', 'only the first browser session may view'))
    .addOption(
      new Option('--email-allowlist <emails>', 'only these logged-in accounts may view (comma-separated, repeatable)').argParser(
        emails,
      ),
    )
    .addOption(
      new Option(
        '--notify <when>',
        'tell me about visits by people: on the first visit, on every visit, in a daily digest, or never (default off)',
      ).choices(['first', 'every', 'daily', 'off']),
    );
}

export function shareInputOf(options: Record<string, unknown>): ShareInput {
  const input: ShareInput = {};
  const copy = <K extends keyof ShareInput>(key: K) => {
    if (options[key] !== undefined) input[key] = options[key] as ShareInput[K];
  };
  (
    [
      'expiresInDays',
      'password',
      'maxVisits',
      'perVisitorMaxVisits',
      'perLoginUserMaxVisits',
      'oneTime',
      'requireLogin',
      'watermarkEnabled',
      'watermarkText',
      'copyProtectionEnabled',
      'burnAfterReadEnabled',
      'slug',
      'lockedVersionId',
      'oneSession',
      'emailAllowlist',
      'notify',
    ] as const
  ).forEach(copy);
  if (options.expiresInDays === NEVER) input.expiresInDays = null;
  if (input.watermarkText !== undefined && input.watermarkEnabled === undefined) input.watermarkEnabled = true;
  return input;
}
