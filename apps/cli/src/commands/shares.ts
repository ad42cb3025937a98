import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printReportTable, printShare, printShareTable, printVisitTable } from '../format.js';
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

  shares
    .command('reports')
    .description('show the abuse reports visitors filed against a share link, newest first, and their state')
    .argument('<id>', 'share id')
    .option('--limit <n>', 'reports per page (1-200, default 50)')
    .option('--cursor <cursor>', 'continue after the page that printed this cursor')
    .action(async (id: string, options: { limit?: string; cursor?: string }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const query = {
        ...(options.limit ? { limit: Number(options.limit) } : {}),
        ...(options.cursor ? { cursor: options.cursor } : {}),
      };
      const page = await session.call(session.client.GET('/api/v1/shares/{id}/reports', { params: { path: { id }, query } }));
      out.result(page, () => {
        printReportTable(out, page.reports);
        if (page.nextCursor) out.note(`More reports: --cursor ${page.nextCursor}`);
      });
    });

  shares
    .command('visits')
    .description("show a share link's visit log, newest first (or all of it as CSV)")
    .argument('<id>', 'share id')
    .option('--csv', 'print every visit the filters select as CSV, with a header line')
    .option('--limit <n>', 'visits per page (1-200, default 50)')
    .option('--cursor <cursor>', 'continue after the page that printed this cursor')
    .option('--from <time>', 'visits at or after this ISO 8601 time')
    .option('--to <time>', 'visits before this ISO 8601 time')
    .option('--automated <true|false>', 'only automated visits, or only human ones')
    .action(async (id: string, options: VisitOptions, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const query = {
        ...(options.from ? { from: options.from } : {}),
        ...(options.to ? { to: options.to } : {}),
        ...(options.automated ? { automated: options.automated as 'true' | 'false' } : {}),
      };
      if (options.csv) {
        const csv = await session.call(
          session.client.GET('/api/v1/shares/{id}/visits.csv', { params: { path: { id }, query }, parseAs: 'text' }),
        );
        out.line(String(csv).replace(/\n$/, ''));
        return;
      }
      const page = await session.call(
        session.client.GET('/api/v1/shares/{id}/visits', {
          params: {
            path: { id },
            query: {
              ...query,
              ...(options.limit ? { limit: Number(options.limit) } : {}),
              ...(options.cursor ? { cursor: options.cursor } : {}),
            },
          },
        }),
      );
      out.result(page, () => {
        printVisitTable(out, page.visits);
        if (page.nextCursor) out.note(`More visits: --cursor ${page.nextCursor}`);
      });
    });
}

interface VisitOptions {
  csv?: boolean;
  limit?: string;
  cursor?: string;
  from?: string;
  to?: string;
  automated?: string;
}
