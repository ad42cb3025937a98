import { readFileSync } from 'node:fs';
import { LIMITS, type Schemas, type ShareInput } from '@sharedown/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from './errors.js';

export type ShareUpdate = Schemas['UpdateShareDto'];

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

function emails(value: string, previous?: string[] | false): string[] {
  // A `--no-email-allowlist` before the flag leaves `false` behind; the flag starts a new list then.
  return [
    ...(Array.isArray(previous) ? previous : []),
    ...value
      .split(',')
      .map((email) => email.trim())
      .filter(Boolean),
  ];
}

// A collection's folder is not a flag of this table yet; the agreement has flags of its own (agreementOf).
type ShareField = Exclude<keyof ShareInput, 'folderId' | 'agreement'>;

/** One flag per ShareInput field, named after it in kebab case. */
const FLAGS: Record<ShareField, () => Option> = {
  expiresInDays: () =>
    new Option(
      '--expires-in-days <days>',
      `link expires after this many days (${expiresInDays.min}..${expiresInDays.max}), or "never"`,
    ).argParser(daysOrNever),
  password: () =>
    new Option(
      '--password <password>',
      `visitors must enter this password (${sharePassword.min}..${sharePassword.max} characters)`,
    ),
  maxVisits: () => new Option('--max-visits <n>', `total successful views allowed (${visitRange})`).argParser(integer),
  perVisitorMaxVisits: () =>
    new Option('--per-visitor-max-visits <n>', `views allowed per distinct visitor (${visitRange})`).argParser(integer),
  perLoginUserMaxVisits: () =>
    new Option(
      '--per-login-user-max-visits <n>',
      `views allowed per logged-in account (${visitRange}); visitors must log in`,
    ).argParser(integer),
  oneTime: () => new Option('--one-time', 'single view only (forces max visits to 1)'),
  requireLogin: () => new Option('--require-login', 'visitors must be logged in to the service'),
  watermarkEnabled: () => new Option('--watermark-enabled', 'overlay a watermark on the rendered page'),
  watermarkText: () =>
    new Option(
      '--watermark-text <text>',
      `watermark text, at most ${watermarkText.max} characters (implies --watermark-enabled)`,
    ),
  copyProtectionEnabled: () => new Option('--copy-protection-enabled', 'block copy, selection and right-click'),
  burnAfterReadEnabled: () => new Option('--burn-after-read-enabled', 'content scrolled past stays hidden'),
  slug: () => new Option('--slug <slug>', 'custom short name for the link (3..32 of A-Z a-z 0-9 _ -)'),
  lockedVersionId: () => new Option('--locked-version-id <id>', 'pin the share to one file version'),
  oneSession: () => new Option('--one-session', 'only the first browser session may view'),
  emailAllowlist: () =>
    new Option('--email-allowlist <emails>', 'only these logged-in accounts may view (comma-separated, repeatable)').argParser(
      emails,
    ),
  notify: () =>
    new Option(
      '--notify <when>',
      'tell me about visits by people: on the first visit, on every visit, in a daily digest, or never (default off)',
    ).choices(['first', 'every', 'daily', 'off']),
};

const CREATE_FIELDS = [
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
] as const satisfies readonly ShareField[];

/**
 * The policies an edit may change (UpdateShareDto), each with the `--no-…` flag that removes it.
 * The link itself (slug, pinned version, one-time nature) stays as created.
 */
const EDIT_FIELDS = {
  expiresInDays: ['--no-expires-in-days', 'remove the expiry: the link never expires (same as --expires-in-days never)'],
  password: ['--no-password', 'remove the password'],
  maxVisits: ['--no-max-visits', 'remove the cap on total views'],
  perVisitorMaxVisits: ['--no-per-visitor-max-visits', 'remove the cap on views per visitor'],
  perLoginUserMaxVisits: ['--no-per-login-user-max-visits', 'remove the cap on views per account'],
  requireLogin: ['--no-require-login', 'visitors need not log in'],
  watermarkEnabled: ['--no-watermark-enabled', 'turn the watermark off'],
  watermarkText: ['--no-watermark-text', 'remove the watermark text (a watermark still on shows the visitor and the time)'],
  copyProtectionEnabled: ['--no-copy-protection-enabled', 'allow copy, selection and right-click again'],
  burnAfterReadEnabled: ['--no-burn-after-read-enabled', 'keep content scrolled past visible'],
  oneSession: ['--no-one-session', 'any browser session may view'],
  emailAllowlist: ['--no-email-allowlist', 'remove the allowlist'],
  notify: ['--no-notify', 'no notifications (same as --notify off)'],
} as const satisfies Partial<Record<ShareField, readonly [string, string]>>;

type EditField = keyof typeof EDIT_FIELDS;

/** Fields whose `--no-…` flag removes the value: the service takes null for them. */
const NULLABLE: ReadonlySet<EditField> = new Set([
  'expiresInDays',
  'password',
  'maxVisits',
  'perVisitorMaxVisits',
  'perLoginUserMaxVisits',
  'watermarkText',
]);

const { agreementText, agreementName } = LIMITS;

/** The agreement's flags: its Markdown inline or from a file, and whether the visitor types a name. */
function addAgreementOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--agreement <text>',
        `an agreement (Markdown, ${agreementText.min}..${agreementText.max} characters) each visitor accepts before any content`,
      ).conflicts('agreementFile'),
    )
    .addOption(new Option('--agreement-file <path>', 'the agreement read from a Markdown file (UTF-8)'))
    .addOption(
      new Option(
        '--agreement-require-name',
        `visitors also type their name (${agreementName.min}..${agreementName.max} characters) to accept`,
      ),
    );
}

/** The flags of `shares create` and `publish`: one per ShareInput field. */
export function addShareOptions(command: Command): Command {
  for (const field of CREATE_FIELDS) command.addOption(FLAGS[field]());
  return addAgreementOptions(command);
}

/** The flags of `shares edit`: one per UpdateShareDto field, each followed by its `--no-…`. */
export function addShareEditOptions(command: Command): Command {
  for (const [field, [negation, description]] of Object.entries(EDIT_FIELDS) as [EditField, readonly [string, string]][]) {
    command.addOption(FLAGS[field]()).addOption(new Option(negation, description));
  }
  return addAgreementOptions(command)
    .addOption(new Option('--no-agreement', 'remove the agreement (visitors are no longer asked)'))
    .addOption(new Option('--no-agreement-require-name', 'visitors accept without typing a name'));
}

/** The agreement's text as the flags give it: inline, from a file, or none. */
export function agreementTextOf(options: Record<string, unknown>): string | undefined {
  if (typeof options.agreement === 'string') return options.agreement;
  if (typeof options.agreementFile !== 'string') return undefined;
  try {
    return readFileSync(options.agreementFile, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --agreement-file ${options.agreementFile}: ${(error as Error).message}`);
  }
}

export function shareInputOf(options: Record<string, unknown>): ShareInput {
  const input: ShareInput = {};
  const copy = <K extends keyof ShareInput>(key: K) => {
    if (options[key] !== undefined) input[key] = options[key] as ShareInput[K];
  };
  CREATE_FIELDS.forEach(copy);
  if (options.expiresInDays === NEVER) input.expiresInDays = null;
  if (input.watermarkText !== undefined && input.watermarkEnabled === undefined) input.watermarkEnabled = true;
  const text = agreementTextOf(options);
  if (text !== undefined) input.agreement = { text, requireName: options.agreementRequireName === true };
  else if (options.agreementRequireName === true)
    throw new UsageError('--agreement-require-name needs --agreement or --agreement-file');
  return input;
}

/**
 * The agreement an edit asks for: null for `--no-agreement`, the new text and name rule, or
 * undefined when no agreement flag was given. `current` is the share's agreement, which a flag
 * that changes only one of text and name rule keeps the other of.
 */
export function agreementUpdateOf(
  options: Record<string, unknown>,
  current: { text: string; requireName: boolean } | null | undefined,
): ShareInput['agreement'] | undefined {
  if (options.agreement === false) return null;
  const text = agreementTextOf(options);
  const requireName = typeof options.agreementRequireName === 'boolean' ? options.agreementRequireName : undefined;
  if (text === undefined && requireName === undefined) return undefined;
  const base = text ?? current?.text;
  if (base === undefined) throw new UsageError('the share has no agreement: give its text with --agreement or --agreement-file');
  return { text: base, requireName: requireName ?? current?.requireName ?? false };
}

/** Whether an edit's agreement flags need the share's current agreement (one of text and name rule is kept). */
export function agreementNeedsCurrent(options: Record<string, unknown>): boolean {
  if (options.agreement === false) return false;
  const hasText = typeof options.agreement === 'string' || typeof options.agreementFile === 'string';
  return hasText !== (typeof options.agreementRequireName === 'boolean');
}

/**
 * The PATCH body of `shares edit`: only the fields a flag named (absent ones stay as they are).
 * Commander gives `false` for a `--no-…` flag; the service wants null for a removed value, [] for
 * no allowlist and `off` for no notifications.
 */
export function shareUpdateOf(options: Record<string, unknown>): ShareUpdate {
  const update: Record<string, unknown> = {};
  for (const field of Object.keys(EDIT_FIELDS) as EditField[]) {
    const value = options[field];
    if (value === undefined) continue;
    if (value !== false) update[field] = value;
    else if (NULLABLE.has(field)) update[field] = null;
    else if (field === 'emailAllowlist') update[field] = [];
    else if (field === 'notify') update[field] = 'off';
    else update[field] = false;
  }
  if (update.expiresInDays === NEVER) update.expiresInDays = null;
  if (typeof update.watermarkText === 'string' && update.watermarkEnabled === undefined) update.watermarkEnabled = true;
  return update as ShareUpdate;
}
