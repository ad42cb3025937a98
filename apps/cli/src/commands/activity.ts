import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printActivityTable } from '../format-activity.js';
import { addOnePageOptions, pageQueryOf, type PageOptions } from '../pages.js';

/** The service's page sizes of GET /api/v1/activity. */
const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;

export function registerActivityCommand(program: Command, context: CommandContext): void {
  addOnePageOptions(
    program
      .command('activity')
      .description(
        "your account's own audit trail, newest first, one page: sign-ins, tokens, webhooks, shares, deletions, two factors, sessions",
      ),
    'events',
    MAX_LIMIT,
    DEFAULT_LIMIT,
  )
    .option('--actor <userId>', "only this member's events, in a shared workspace (a userId from `sharedown members ls`)")
    .addHelpText('after', '\nExamples:\n  sharedown activity --limit 10 --json\n  sharedown activity --actor <userId>')
    .action(async (options: PageOptions & { actor?: string }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const query = { ...pageQueryOf(options), ...(options.actor ? { actor: options.actor } : {}) };
      const page = await session.call(session.client.GET('/api/v1/activity', { params: { query } }));
      out.result(page, () => printActivityTable(out, page.events));
      if (page.nextCursor) out.note(`More events: run again with --cursor ${page.nextCursor}`);
    });
}
