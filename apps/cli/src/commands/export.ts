import { createWriteStream } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { formatBytes } from '../output.js';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export function registerExportCommand(program: Command, context: CommandContext): void {
  program
    .command('export')
    .description(
      'download all your documents (every version, trashed ones too) and your share list as one zip: ' +
        'documents/, trash/, versions/, manifest.json, shares.json',
    )
    .option('-o, --out <file>', 'where to write the zip (default: sharedown-export-<date>.zip here)')
    .option('--force', 'overwrite the file if it exists')
    .action(async (options: { out?: string; force?: boolean }, command: Command) => {
      const out = context.output(command);
      const file = options.out ?? `sharedown-export-${new Date().toISOString().slice(0, 10)}.zip`;
      if (!options.force && (await exists(file))) throw new UsageError(`${file} exists; use --force to overwrite it`);
      const session = await context.session();
      const body = await session.call(session.client.GET('/api/v1/export', { parseAs: 'stream' }));
      // Written beside the target first: an interrupted download never leaves a zip that looks whole.
      const partial = `${file}.partial`;
      try {
        await pipeline(Readable.fromWeb(body as unknown as WebReadableStream), createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      const bytes = (await stat(file)).size;
      out.result({ file, bytes }, () => out.line(`Exported to ${file} (${formatBytes(bytes)}).`));
    });
}
