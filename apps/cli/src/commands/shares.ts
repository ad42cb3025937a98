import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printShare, printShareTable } from '../format.js';
import { addPageOptions, readPages, type PageOptions } from '../pages.js';
import { addShareOptions, shareInputOf } from '../share-options.js';

export function registerSharesCommands(program: Command, context: CommandContext): void {
  const shares = program.command('shares').description('list, create, inspect and revoke share links');

  addPageOptions(
    shares
      .command('ls')
      .alias('list')
      .description('list share links, newest first')
      .option('--file <id>', 'only links of this file'),
    'links',
  ).action(async (options: { file?: string } & PageOptions, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const read = await readPages(options, async (limit, cursor) => {
      const page = await session.call(
        session.client.GET('/api/v1/shares', {
          params: { query: { ...(options.file ? { fileId: options.file } : {}), limit, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: page.shares, nextCursor: page.nextCursor ?? null };
    });
    const result = read.nextCursor === undefined ? { shares: read.items } : { shares: read.items, nextCursor: read.nextCursor };
    out.result(result, () => printShareTable(out, result.shares));
    if (read.nextCursor) out.note(`More links: run again with --cursor ${read.nextCursor}`);
  });

  addShareOptions(
    shares.command('create').description('create a share link for a file and print its URL').argument('<fileId>', 'file id'),
  ).action(async (fileId: string, options: Record<string, unknown>, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const result = await session.call(session.client.POST('/api/v1/shares', { body: { ...shareInputOf(options), fileId } }));
    out.result(result, () => printShare(out, result.share, result.url));
  });

  shares
    .command('get')
    .description('show one share link')
    .argument('<id>', 'share id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const share = await session.call(session.client.GET('/api/v1/shares/{id}', { params: { path: { id } } }));
      out.result(share, () => printShare(out, share));
    });

  shares
    .command('revoke')
    .description('revoke a share link; its URL stops working for good')
    .argument('<id>', 'share id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.DELETE('/api/v1/shares/{id}', { params: { path: { id } } }));
      out.result(result, () => out.line(`Revoked share ${id}.`));
    });
}
