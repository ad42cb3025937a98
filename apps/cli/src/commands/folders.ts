import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printFolder, printFolderTree } from '../format-folders.js';
import { folderMoveOf } from '../option-rules.js';

export function registerFoldersCommands(program: Command, context: CommandContext): void {
  const folders = program.command('folders').description('list, create, move, rename and delete folders');

  folders
    .command('ls')
    .alias('list')
    .description('show the folder tree with each folder id')
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const tree = await session.call(session.client.GET('/api/v1/folders'));
      out.result(tree, () => printFolderTree(out, tree.folders));
    });

  folders
    .command('create')
    .description('create a folder at the top level or inside another')
    .argument('<name>', 'folder name')
    .option('--parent <id>', 'create it inside this folder (default: the top level)')
    .addHelpText('after', '\nExample: sharedown folders create Drafts --parent <folderId>')
    .action(async (name: string, options: { parent?: string }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(
        session.client.POST('/api/v1/folders', { body: { name, ...(options.parent ? { parentId: options.parent } : {}) } }),
      );
      out.result(result, () => printFolder(out, result.folder));
    });

  folders
    .command('mv')
    .alias('move')
    .description('move a folder, with everything in it, into another folder or to the top level')
    .argument('<id>', 'folder id')
    .option('--parent <id>', 'move it into this folder')
    .option('--root', 'move it to the top level')
    .addHelpText('after', '\nGive --parent or --root. A folder cannot move into itself or below itself (CONFLICT).')
    .action(async (id: string, options: { parent?: string; root?: boolean }, command: Command) => {
      const out = context.output(command);
      const body = folderMoveOf(options);
      const session = await context.session();
      const result = await session.call(session.client.PATCH('/api/v1/folders/{id}', { params: { path: { id } }, body }));
      out.result(result, () => printFolder(out, result.folder));
    });

  folders
    .command('rename')
    .description('rename a folder')
    .argument('<id>', 'folder id')
    .argument('<name>', 'new name')
    .action(async (id: string, name: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(
        session.client.PATCH('/api/v1/folders/{id}', { params: { path: { id } }, body: { name } }),
      );
      out.result(result, () => printFolder(out, result.folder));
    });

  folders
    .command('rm')
    .alias('delete')
    .description('move a folder with its sub-folders and files to the trash; their share links are revoked')
    .argument('<id>', 'folder id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.DELETE('/api/v1/folders/{id}', { params: { path: { id } } }));
      out.result(result, () =>
        out.line(
          `Moved folder ${result.folder.name} (${id}) to the trash with its sub-folders and files; their share links are revoked.`,
        ),
      );
    });
}
