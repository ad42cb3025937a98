import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { uploadDocument } from '../documents.js';
import { printFile, printFileTable } from '../format.js';
import { fileUpdateOf } from '../option-rules.js';
import { addPageOptions, readPages, type PageOptions } from '../pages.js';

export function registerFilesCommands(program: Command, context: CommandContext): void {
  const files = program.command('files').description('list, inspect, read, upload, move, rename and delete files');

  addPageOptions(
    files.command('ls').alias('list').description('list files, by name').option('--folder <id>', 'only files in this folder'),
    'files',
  ).action(async (options: { folder?: string } & PageOptions, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const read = await readPages(options, async (limit, cursor) => {
      const page = await session.call(
        session.client.GET('/api/v1/files', {
          params: { query: { ...(options.folder ? { folderId: options.folder } : {}), limit, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: page.files, nextCursor: page.nextCursor ?? null };
    });
    const result = read.nextCursor === undefined ? { files: read.items } : { files: read.items, nextCursor: read.nextCursor };
    out.result(result, () => printFileTable(out, result.files));
    if (read.nextCursor) out.note(`More files: run again with --cursor ${read.nextCursor}`);
  });

  files
    .command('get')
    .description("show one file's metadata")
    .argument('<id>', 'file id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const file = await session.call(session.client.GET('/api/v1/files/{id}', { params: { path: { id } } }));
      out.result(file, () => printFile(out, file));
    });

  files
    .command('cat')
    .description('print the text of a file exactly as stored: the newest version the virus scan found clean')
    .argument('<id>', 'file id')
    .addHelpText(
      'after',
      [
        '',
        'stdout gets the document byte for byte, nothing added. A quarantined file fails with INFECTED,',
        'one no version of which has been found clean yet (being scanned) with CONFLICT (exit 1).',
        'With --json: { fileId, mediaType, versionId, text }.',
        'Example: sharedown files cat <id> > notes.md',
      ].join('\n'),
    )
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      // Raw bytes, not text: decoding would drop a byte-order mark the author stored.
      const { data, response } = await session.answer(
        session.client.GET('/api/v1/files/{id}/content', { params: { path: { id } }, parseAs: 'arrayBuffer' }),
      );
      const bytes = Buffer.from(data);
      out.result(
        {
          fileId: id,
          mediaType: response.headers.get('content-type'),
          versionId: response.headers.get('x-version-id'),
          text: bytes.toString('utf8'),
        },
        () => context.io.stdout.write(bytes),
      );
    });

  files
    .command('mv')
    .alias('move')
    .description('move a file into another folder or to the root, rename it, or both')
    .argument('<id>', 'file id')
    .option('--folder <id>', 'move it into this folder')
    .option('--root', 'move it to the root (no folder)')
    .option('--name <name>', 'new name (the same extension rules as uploads; the kind cannot change)')
    .addHelpText(
      'after',
      '\nGive --folder or --root (not both), --name, or both. A live file of that name in the target folder is a DUPLICATE.\n' +
        'Examples: sharedown files mv <id> --folder <folderId>\n          sharedown files mv <id> --root --name final.md',
    )
    .action(async (id: string, options: { folder?: string; root?: boolean; name?: string }, command: Command) => {
      const out = context.output(command);
      const body = fileUpdateOf(options);
      const session = await context.session();
      const result = await session.call(session.client.PATCH('/api/v1/files/{id}', { params: { path: { id } }, body }));
      out.result(result, () => printFile(out, result.file));
    });

  files
    .command('upload')
    .description('upload a .html, .htm, .md, .markdown, .txt or .text file (at most 10 MB)')
    .argument('<path>', 'file to upload, or - to read stdin (then --name is required)')
    .option('--name <name>', "file name to store (default: the path's base name)")
    .option('--folder <id>', 'folder to store the file in (default: the root)')
    .action(async (path: string, options: { name?: string; folder?: string }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await uploadDocument(context, session, path, options);
      out.result(result, () => printFile(out, result.file));
    });

  files
    .command('rm')
    .alias('delete')
    .description('move a file to the trash; every share link of the file is revoked')
    .argument('<id>', 'file id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.DELETE('/api/v1/files/{id}', { params: { path: { id } } }));
      out.result(result, () => out.line(`Deleted file ${id}; its share links are revoked.`));
    });
}
