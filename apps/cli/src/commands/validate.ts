import { kindOfName } from '@sharedown/contract';
import { issueText, SHARED_MESSAGES } from '@sharedown/i18n';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { parseKind } from '../documents.js';
import { ExitCode, UsageError } from '../errors.js';
import { readInput } from '../input.js';
import { messageLocale } from '../language.js';

interface ValidateOptions {
  kind?: string;
  normalized?: boolean;
}

export function registerValidateCommand(program: Command, context: CommandContext): void {
  program
    .command('validate')
    .description('check and normalize a document without storing it; exits 4 when it has errors')
    .argument('<path>', 'file to check, or - to read stdin (then --kind is required)')
    .option('--kind <kind>', 'HTML, MARKDOWN or TEXT (default: from the file extension)')
    .option('--normalized', 'print the normalized content instead of the report')
    .action(async (path: string, options: ValidateOptions, command: Command) => {
      const out = context.output(command);
      const document = await readInput(path, context.io);
      const kind = options.kind ? parseKind(options.kind) : document.name ? kindOfName(document.name) : undefined;
      if (!kind) {
        throw new UsageError(
          path === '-' ? 'reading from stdin needs --kind HTML|MARKDOWN|TEXT' : `cannot tell the kind of ${path}: pass --kind`,
        );
      }
      const session = await context.session();
      const result = await session.call(
        session.client.POST('/api/v1/validate', { body: { content: document.bytes.toString('utf8'), kind } }),
      );
      out.result(result, () => {
        if (options.normalized) {
          context.io.stdout.write(result.normalized);
          return;
        }
        const color = out.color;
        // Issues in the user's language, from their codes; the api's own (Chinese) words for Chinese.
        const locale = messageLocale(context.io.env);
        for (const issue of result.issues) {
          const where = issue.line !== undefined ? `${issue.line}${issue.col !== undefined ? `:${issue.col}` : ''}` : '';
          const paint = issue.level === 'error' ? color.red : issue.level === 'warning' ? color.yellow : color.blue;
          const text = locale === 'zh-CN' ? issue.message : issueText(SHARED_MESSAGES[locale], issue);
          out.line(`${where.padEnd(8)} ${paint(issue.level.padEnd(7))}  ${text}`);
        }
        const errors = result.issues.filter((issue) => issue.level === 'error').length;
        out.line(
          result.ok
            ? color.green(`OK (${result.kind}, ${result.issues.length} note${result.issues.length === 1 ? '' : 's'})`)
            : color.red(`${errors} error${errors === 1 ? '' : 's'} (${result.kind})`),
        );
      });
      if (!result.ok) context.exitCode = ExitCode.INVALID_CONTENT;
    });
}
