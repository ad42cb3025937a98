import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { printFile } from '../format.js';
import { printFolder, printTrash } from '../format-folders.js';
import { confirmed, purgePlanOf, trashKindOf } from '../option-rules.js';
import { formatBytes } from '../output.js';
import { prompt } from '../prompt.js';

interface KindOptions {
  file?: boolean;
  folder?: boolean;
}

interface PurgeOptions extends KindOptions {
  all?: boolean;
  yes?: boolean;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function registerTrashCommands(program: Command, context: CommandContext): void {
  const trash = program
    .command('trash')
    .description('list, restore and purge what was deleted; trashed files count against the quota until purged');

  trash
    .command('ls')
    .alias('list')
    .description('list the trashed folders (with what went with them) and the files trashed on their own')
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const list = await session.call(session.client.GET('/api/v1/trash'));
      out.result(list, () => printTrash(out, list));
    });

  trash
    .command('restore')
    .description('bring a trashed file (or, with --folder, a folder and its content) back; share links stay revoked')
    .argument('<id>', 'id of the trashed file, or folder with --folder')
    .option('--file', 'the id is a file (the default)')
    .option('--folder', 'the id is a folder')
    .addHelpText(
      'after',
      '\nA file goes back into its folder (the root if that is gone); a taken name becomes "name (1).ext".\n' +
        'Example: sharedown trash restore <folderId> --folder',
    )
    .action(async (id: string, options: KindOptions, command: Command) => {
      const out = context.output(command);
      const kind = trashKindOf(options);
      const session = await context.session();
      const params = { params: { path: { id } } };
      if (kind === 'folder') {
        const result = await session.call(session.client.POST('/api/v1/trash/folders/{id}/restore', params));
        out.result(result, () => {
          printFolder(out, result.folder);
          if (result.renamed) out.note(`The name was taken: restored as ${result.folder.name}.`);
        });
        return;
      }
      const result = await session.call(session.client.POST('/api/v1/trash/files/{id}/restore', params));
      out.result(result, () => {
        printFile(out, result.file);
        if (result.renamed) out.note(`The name was taken: restored as ${result.file.name}.`);
      });
    });

  trash
    .command('purge')
    .description('delete a trashed file or folder for good, or --all of the trash, and free its storage')
    .argument('[id]', 'id of the trashed file, or folder with --folder')
    .option('--file', 'the id is a file (the default)')
    .option('--folder', 'the id is a folder (with its sub-folders and files)')
    .option('--all', 'empty the whole trash')
    .option('-y, --yes', 'with --all: do not ask for confirmation (required when stdin is not a terminal)')
    .addHelpText(
      'after',
      [
        '',
        'Purging cannot be undone. --all asks for confirmation on a terminal; without a terminal',
        '(scripts, pipes) it refuses to run unless --yes is given too. Prints the storage freed.',
        'Examples: sharedown trash purge <fileId>',
        '          sharedown trash purge --all --yes --json',
      ].join('\n'),
    )
    .action(async (id: string | undefined, options: PurgeOptions, command: Command) => {
      const out = context.output(command);
      const { io } = context;
      const plan = purgePlanOf(id, options);
      if (plan.kind === 'all' && !options.yes && !io.stdin.isTTY) {
        throw new UsageError('emptying the whole trash asks for confirmation, and stdin is not a terminal: add --yes');
      }
      const session = await context.session();
      if (plan.kind === 'all' && !options.yes) {
        const list = await session.call(session.client.GET('/api/v1/trash'));
        if (list.files.length || list.folders.length) {
          const what = [
            list.folders.length ? count(list.folders.length, 'folder') : null,
            list.files.length ? count(list.files.length, 'file') : null,
          ]
            .filter(Boolean)
            .join(' and ');
          const answer = await prompt(io, `Delete ${what} in the trash for good? This cannot be undone. [y/N] `);
          if (!confirmed(answer)) {
            out.result({ purgedFiles: 0, freedBytes: 0, cancelled: true }, () => out.line('Nothing purged.'));
            return;
          }
        }
      }
      const result = await session.call(
        plan.kind === 'all'
          ? session.client.DELETE('/api/v1/trash')
          : plan.kind === 'folder'
            ? session.client.DELETE('/api/v1/trash/folders/{id}', { params: { path: { id: plan.id } } })
            : session.client.DELETE('/api/v1/trash/files/{id}', { params: { path: { id: plan.id } } }),
      );
      out.result(result, () =>
        out.line(
          `Purged ${count(result.purgedFiles, 'file')}; freed ${formatBytes(result.freedBytes)} (${result.freedBytes} bytes).`,
        ),
      );
    });
}
