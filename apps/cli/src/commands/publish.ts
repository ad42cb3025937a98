import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { uploadDocument } from '../documents.js';
import { addShareOptions, shareInputOf } from '../share-options.js';

export function registerPublishCommand(program: Command, context: CommandContext): void {
  addShareOptions(
    program
      .command('publish')
      .description('upload a file and create a share link in one call; prints the link')
      .argument('<path>', 'file to publish, or - to read stdin (then --name is required)')
      .option('--name <name>', "file name to store (default: the path's base name)")
      .option('--folder <id>', 'folder to store the file in (default: the root)'),
  )
    .addHelpText('after', '\nExample: sharedown publish notes.md --expires-in-days 7 --password hunter22')
    .action(async (path: string, options: Record<string, unknown>, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await uploadDocument(context, session, path, {
        name: options.name as string | undefined,
        folder: options.folder as string | undefined,
        share: shareInputOf(options),
      });
      out.result(result, () => {
        // Only the URL goes to stdout, so `url=$(sharedown publish doc.md)` works.
        out.line(result.url ?? '');
        out.note(out.color.dim(`file ${result.file.id} (${result.file.name}), share ${result.share?.id}`));
      });
    });
}
