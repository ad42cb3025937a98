import { InvalidArgumentError, Option, type Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { printShareStats } from '../format-activity.js';
import {
  printAcceptanceTable,
  printReportTable,
  printShare,
  printShareTable,
  printVisitTable,
  type SharePolicies,
  type ShareView,
} from '../format.js';
import { MAX_PAGE_LIMIT, addPageOptions, readPages, type PageOptions } from '../pages.js';
import type { Session } from '../session.js';
import {
  addShareEditOptions,
  addShareOptions,
  agreementNeedsCurrent,
  agreementUpdateOf,
  shareInputOf,
  shareUpdateOf,
} from '../share-options.js';

/**
 * The share with the policies its object leaves out (one session, the allowlist), so that what
 * `shares edit` can change, `shares get` can show.
 */
async function withPolicies(session: Session, share: ShareView): Promise<ShareView & SharePolicies> {
  const policies = await session.call(session.client.GET('/api/v1/shares/{id}/policies', { params: { path: { id: share.id } } }));
  return { ...share, ...policies };
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
}

export function registerSharesCommands(program: Command, context: CommandContext): void {
  const shares = program
    .command('shares')
    .description('list, create, edit, inspect and revoke share links; their visits, analytics and abuse reports');

  addPageOptions(
    shares
      .command('ls')
      .alias('list')
      .description('list share links, newest first')
      .option('--file <id>', 'only links of this file')
      .option('--folder <id>', 'only the collection links of this folder'),
    'links',
  ).action(async (options: { file?: string; folder?: string } & PageOptions, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const read = await readPages(options, async (limit, cursor) => {
      const page = await session.call(
        session.client.GET('/api/v1/shares', {
          params: {
            query: {
              ...(options.file ? { fileId: options.file } : {}),
              ...(options.folder ? { folderId: options.folder } : {}),
              limit,
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      );
      return { items: page.shares, nextCursor: page.nextCursor ?? null };
    });
    const result = read.nextCursor === undefined ? { shares: read.items } : { shares: read.items, nextCursor: read.nextCursor };
    out.result(result, () => printShareTable(out, result.shares));
    if (read.nextCursor) out.note(`More links: run again with --cursor ${read.nextCursor}`);
  });

  addShareOptions(
    shares
      .command('create')
      .description(
        'create a share link for a file, or with --folder for a folder (a collection of its documents), and print its URL',
      )
      .argument('[fileId]', 'file id (leave out with --folder)')
      .option(
        '--folder <id>',
        "share this folder as a collection instead of a file: one link listing the folder's clean documents, sub-folders included",
      ),
  ).action(async (fileId: string | undefined, options: Record<string, unknown>, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const { folder, ...policies } = options;
    // Exactly one of the two: the service answers a VALIDATION error naming the field otherwise.
    const target = { ...(fileId !== undefined ? { fileId } : {}), ...(typeof folder === 'string' ? { folderId: folder } : {}) };
    if (Object.keys(target).length === 0) throw new UsageError('give a file id, or --folder <id> to share a folder');
    const result = await session.call(session.client.POST('/api/v1/shares', { body: { ...shareInputOf(policies), ...target } }));
    out.result(result, () => printShare(out, result.share, result.url));
  });

  shares
    .command('get')
    .description('show one share link with all its policies')
    .argument('<id>', 'share id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const share = await withPolicies(
        session,
        await session.call(session.client.GET('/api/v1/shares/{id}', { params: { path: { id } } })),
      );
      out.result(share, () => printShare(out, share));
    });

  addShareEditOptions(
    shares
      .command('edit')
      .description("change a live share link's policies; the link, its counts and its history stay")
      .argument('<id>', 'share id'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Only the policies named change. Each flag has a --no-… form that removes the policy: no expiry,',
        'no password, no cap, no watermark text, no allowlist; --no-<switch> turns a switch off.',
        'A total cap at or below the visit count consumes the link; a higher one opens it again.',
        'A revoked link cannot be changed (CONFLICT).',
        'A new agreement text (--agreement, --agreement-file) asks every visitor again; --no-agreement removes it.',
        'Examples: sharedown shares edit <id> --max-visits 50 --expires-in-days 7',
        '          sharedown shares edit <id> --no-password --no-expires-in-days',
        '          sharedown shares edit <id> --agreement-file nda.md --agreement-require-name',
      ].join('\n'),
    )
    .action(async (id: string, options: Record<string, unknown>, command: Command) => {
      const out = context.output(command);
      const body = shareUpdateOf(options);
      const session = await context.session();
      const current = agreementNeedsCurrent(options)
        ? (await session.call(session.client.GET('/api/v1/shares/{id}', { params: { path: { id } } }))).agreement
        : undefined;
      const agreement = agreementUpdateOf(options, current);
      if (agreement !== undefined) body.agreement = agreement;
      if (!Object.keys(body).length) throw new UsageError('nothing to change: give at least one policy flag (see --help)');
      const share = await withPolicies(
        session,
        await session.call(session.client.PATCH('/api/v1/shares/{id}', { params: { path: { id } }, body })),
      );
      out.result(share, () => printShare(out, share));
    });

  shares
    .command('stats')
    .alias('analytics')
    .description(
      "a share link's visit analytics: visits per day by people and automated, engagement, top referrers, devices, " +
        'and reading by section (readers and median seconds per h1–h3 section of each document)',
    )
    .argument('<id>', 'share id')
    .addOption(new Option('--days <n>', 'the last n days, today included (1..365, default 30)').argParser(wholeNumber))
    .action(async (id: string, options: { days?: number }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const stats = await session.call(
        session.client.GET('/api/v1/shares/{id}/analytics', {
          params: { path: { id }, query: options.days !== undefined ? { days: options.days } : {} },
        }),
      );
      out.result(stats, () => printShareStats(out, stats));
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

  shares
    .command('acceptances')
    .description("show who accepted a share link's agreement, newest first (or all of it as CSV)")
    .argument('<shareId>', 'share id')
    .option('--csv', 'print every acceptance as CSV, with a header line')
    .addOption(
      new Option('--limit <n>', `acceptances per page (1..${MAX_PAGE_LIMIT}, default 50)`)
        .argParser(wholeNumber)
        .conflicts('all'),
    )
    .addOption(new Option('--cursor <cursor>', 'continue after the page that printed this cursor').conflicts('all'))
    .option('--all', 'read every page')
    .addHelpText(
      'after',
      [
        '',
        "Each row: when, the name typed (agreements that ask for one), the signed-in visitor's proven e-mail,",
        'the masked network, the browser and the SHA-256 of the agreement text accepted.',
      ].join('\n'),
    )
    .action(async (id: string, options: AcceptanceOptions, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      if (options.csv) {
        const csv = await session.call(
          session.client.GET('/api/v1/shares/{id}/acceptances.csv', { params: { path: { id } }, parseAs: 'text' }),
        );
        out.line(String(csv).replace(/\n$/, ''));
        return;
      }
      const fetchPage = async (limit: number | undefined, cursor: string | undefined) => {
        const page = await session.call(
          session.client.GET('/api/v1/shares/{id}/acceptances', {
            params: {
              path: { id },
              query: { ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) },
            },
          }),
        );
        return { items: page.acceptances, nextCursor: page.nextCursor };
      };
      const read = options.all ? await readPages({}, fetchPage) : await fetchPage(options.limit, options.cursor);
      const page = { acceptances: read.items, nextCursor: read.nextCursor ?? null };
      out.result(page, () => {
        printAcceptanceTable(out, page.acceptances);
        if (page.nextCursor) out.note(`More acceptances: --cursor ${page.nextCursor} (or --all)`);
      });
    });
}

interface AcceptanceOptions {
  csv?: boolean;
  all?: boolean;
  limit?: number;
  cursor?: string;
}

interface VisitOptions {
  csv?: boolean;
  limit?: string;
  cursor?: string;
  from?: string;
  to?: string;
  automated?: string;
}
