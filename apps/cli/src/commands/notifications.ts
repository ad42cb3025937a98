import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printNotificationTable } from '../format-activity.js';
import { addOnePageOptions, pageQueryOf, type PageOptions } from '../pages.js';

/** The service's page sizes of GET /api/v1/notifications. */
const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;

interface NotificationsOptions extends PageOptions {
  unread?: boolean;
  read?: boolean;
}

export function registerNotificationsCommand(program: Command, context: CommandContext): void {
  addOnePageOptions(
    program
      .command('notifications')
      .description('the notifications of visits to your share links (links with --notify), newest first, one page')
      .option('--unread', 'only unread notifications')
      .option('--read', 'then mark the listed notifications read (needs a token with the "write" scope)'),
    'notifications',
    MAX_LIMIT,
    DEFAULT_LIMIT,
  )
    .addHelpText(
      'after',
      [
        '',
        '--read marks only the notifications printed, never ones on other pages or newer ones; --json then',
        'adds markedRead (how many were marked) and gives the unread count after marking.',
        'Example: sharedown notifications --unread --read',
      ].join('\n'),
    )
    .action(async (options: NotificationsOptions, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const page = await session.call(
        session.client.GET('/api/v1/notifications', {
          params: { query: { ...pageQueryOf(options), ...(options.unread ? { unread: 'true' as const } : {}) } },
        }),
      );
      let result: typeof page & { markedRead?: number } = page;
      if (options.read) {
        // Marking is done before anything is printed, so a refusal leaves stdout empty.
        const ids = page.notifications.filter((notification) => !notification.readAt).map((notification) => notification.id);
        const { unreadCount } = ids.length
          ? await session.call(session.client.POST('/api/v1/notifications/read', { body: { ids } }))
          : page;
        result = { ...page, unreadCount, markedRead: ids.length };
      }
      out.result(result, () => {
        printNotificationTable(out, result.notifications);
        const marked = result.markedRead !== undefined ? `; marked ${result.markedRead} read` : '';
        out.line(out.color.dim(`${result.unreadCount} unread${marked}`));
      });
      if (page.nextCursor) out.note(`More notifications: run again with --cursor ${page.nextCursor}`);
    });
}
