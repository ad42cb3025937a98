import type { Command } from 'commander';
import { configPath, deleteStoredConfig, normalizeUrl, readStoredConfig, writeStoredConfig } from '../config.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { prompt } from '../prompt.js';
import { Session } from '../session.js';

interface LoginOptions {
  url?: string;
  token?: string;
  tokenStdin?: boolean;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

export function registerLoginCommands(program: Command, context: CommandContext): void {
  program
    .command('login')
    .description('check an API token against the service and store it with the URL in the config file (mode 0600)')
    .option('--url <url>', 'service address, e.g. https://share.example.com (default: SHAREDOWN_URL or the stored one)')
    .option('--token <token>', 'API token shd_… (visible in the process list; prefer --token-stdin or the prompt)')
    .option('--token-stdin', 'read the API token from stdin')
    .addHelpText(
      'after',
      '\nCreate API tokens in the console under Settings → API tokens.\nExample: echo "$TOKEN" | sharedown login --url https://share.example.com --token-stdin',
    )
    .action(async (options: LoginOptions, command: Command) => {
      const { io } = context;
      const out = context.output(command);
      const path = configPath(io.env);
      const stored = await readStoredConfig(path);
      if (options.token && options.tokenStdin) throw new UsageError('give either --token or --token-stdin, not both');

      let url = options.url ?? io.env.SHAREDOWN_URL ?? stored.url;
      if (!url && io.stdin.isTTY) url = await prompt(io, 'Service URL: ');
      if (!url) throw new UsageError('no service URL: pass --url <url>');
      url = normalizeUrl(url);

      let token = options.tokenStdin ? (await readAll(io.stdin)).trim() : options.token?.trim();
      if (!token && !options.tokenStdin && io.stdin.isTTY) token = await prompt(io, 'API token: ', true);
      if (!token) throw new UsageError('no API token: pass --token-stdin (or --token <token>)');

      const session = new Session({ url, token });
      const me = await session.call(session.client.GET('/api/v1/me'));
      await writeStoredConfig(path, { url, token });
      out.result({ url, user: me.user, configPath: path }, () => {
        out.line(`Logged in to ${out.color.bold(url)} as ${out.color.bold(me.user.email)}.`);
        out.line(out.color.dim(`Saved to ${path}`));
      });
      const overridden = (['SHAREDOWN_URL', 'SHAREDOWN_TOKEN'] as const).filter((key) => io.env[key]);
      if (overridden.length) out.note(`Note: ${overridden.join(' and ')} set in the environment override the stored values.`);
    });

  program
    .command('logout')
    .description('delete the stored URL and token')
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const path = configPath(context.io.env);
      const removed = await deleteStoredConfig(path);
      out.result({ removed, configPath: path }, () => out.line(removed ? `Removed ${path}.` : `Not logged in (no ${path}).`));
    });
}
