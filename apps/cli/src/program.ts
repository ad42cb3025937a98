import { Command, CommanderError } from 'commander';
import { registerActivityCommand } from './commands/activity.js';
import { registerExportCommand } from './commands/export.js';
import { registerFilesCommands } from './commands/files.js';
import { registerFoldersCommands } from './commands/folders.js';
import { registerLoginCommands } from './commands/login.js';
import { registerNotificationsCommand } from './commands/notifications.js';
import { registerPublishCommand } from './commands/publish.js';
import { registerRequestsCommands } from './commands/requests.js';
import { registerSharesCommands } from './commands/shares.js';
import { registerTrashCommands } from './commands/trash.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerWhoamiCommand } from './commands/whoami.js';
import { registerWorkspaceCommands } from './commands/workspace.js';
import { configPath } from './config.js';
import { CommandContext } from './context.js';
import { ExitCode, reportOf } from './errors.js';
import type { CliIo } from './io.js';
import { messageLocale } from './language.js';
import { Output } from './output.js';
import { packageInfo } from './package-info.js';

export function buildProgram(context: CommandContext): Command {
  const { io } = context;
  const program = new Command('sharedown')
    .description('Share single text documents (HTML, Markdown, plain text) through a Sharedown service')
    .version(packageInfo.version, '-V, --version')
    .option('--json', 'print machine-readable JSON on stdout (errors as JSON on stderr)')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .addHelpText(
      'after',
      [
        '',
        'Configuration:',
        `  stored by "sharedown login" in ${configPath(io.env)}`,
        '  SHAREDOWN_URL and SHAREDOWN_TOKEN override the stored values',
        '',
        'Language: api errors and validation issues follow LC_ALL, LC_MESSAGES or LANG',
        '  (zh, en, ja, de, fr, es; English otherwise)',
        '',
        'Every command takes --help, and --json for exactly one JSON document on stdout.',
        'Examples:',
        '  sharedown publish notes.md --expires-in-days 7     upload and share; prints the link',
        '  sharedown files cat <id> > notes.md                the stored text, byte for byte',
        "  sharedown shares edit <id> --no-password           change a link's policies",
        '  sharedown requests create "Signed policies"       a link others upload documents to',
        '  sharedown members invite ann@example.com --role EDITOR   invite to the workspace; prints the link',
        '  sharedown trash purge --all --yes                  empty the trash without asking',
        '',
        'Exit codes: 0 ok, 1 API error, 2 usage or configuration error, 3 service unreachable, 4 validate found errors',
      ].join('\n'),
    );
  registerLoginCommands(program, context);
  registerWhoamiCommand(program, context);
  registerFilesCommands(program, context);
  registerFoldersCommands(program, context);
  registerTrashCommands(program, context);
  registerSharesCommands(program, context);
  registerRequestsCommands(program, context);
  registerWorkspaceCommands(program, context);
  registerNotificationsCommand(program, context);
  registerActivityCommand(program, context);
  registerValidateCommand(program, context);
  registerPublishCommand(program, context);
  registerExportCommand(program, context);

  // Every command, nested ones included, reports usage errors by throwing instead of exiting.
  const configure = (command: Command) => {
    command.exitOverride().showHelpAfterError('(add --help for usage)');
    command.commands.forEach(configure);
  };
  configure(program);
  return program;
}

function printError(io: CliIo, json: boolean, error: unknown): number {
  const report = reportOf(error, new Date(), messageLocale(io.env));
  const { exitCode, ...body } = report;
  if (json) {
    io.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return exitCode;
  }
  const out = new Output(io, false);
  let text = `${out.errColor.red(report.code)}: ${report.message}`;
  if (report.retryAfterSeconds !== undefined && report.retryAt) {
    const at = new Date(report.retryAt).toLocaleTimeString();
    text += `\nRetry in ${report.retryAfterSeconds} s (after ${at}).`;
  }
  io.stderr.write(`${text}\n`);
  return exitCode;
}

/** Runs one command line (without the node and script arguments) and returns the process exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const context = new CommandContext(io);
  const program = buildProgram(context);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return ExitCode.USAGE;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help/version text).
      const informational =
        ['commander.helpDisplayed', 'commander.version'].includes(error.code) ||
        (error.code === 'commander.help' && error.exitCode === 0);
      return informational ? ExitCode.OK : ExitCode.USAGE;
    }
    return printError(io, argv.includes('--json'), error);
  }
}
