import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { formatBytes } from '../output.js';

export function registerWhoamiCommand(program: Command, context: CommandContext): void {
  program
    .command('whoami')
    .description('show the account the configured token belongs to, and its storage use')
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const me = await session.call(session.client.GET('/api/v1/me'));
      out.result(me, () => {
        const { user } = me;
        const percent = user.quotaBytes > 0 ? ` (${((user.usedBytes / user.quotaBytes) * 100).toFixed(1)}%)` : '';
        out.fields([
          ['email', out.color.bold(user.email)],
          ['user id', user.id],
          ['storage', `${formatBytes(user.usedBytes)} of ${formatBytes(user.quotaBytes)}${percent}`],
          ['service', `${session.config.url}${session.config.sources?.url === 'env' ? ' (SHAREDOWN_URL)' : ''}`],
          ['token id', `${me.auth.tokenId}${session.config.sources?.token === 'env' ? ' (SHAREDOWN_TOKEN)' : ''}`],
        ]);
      });
    });
}
