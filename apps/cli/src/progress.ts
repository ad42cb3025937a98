import cliProgress from 'cli-progress';
import type { CliIo } from './io.js';
import { formatBytes } from './output.js';

/** Uploads above this size show a progress bar when stderr is a terminal. */
export const PROGRESS_THRESHOLD_BYTES = 1024 * 1024;

export interface Progress {
  update(sentBytes: number): void;
  stop(): void;
}

export function uploadProgress(io: CliIo, totalBytes: number, label: string): Progress | undefined {
  if (!io.stderr.isTTY || totalBytes <= PROGRESS_THRESHOLD_BYTES) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream as NodeJS.WriteStream,
      format: `Uploading ${label} [{bar}] {percentage}% | {sent} of {size}`,
      hideCursor: true,
      clearOnComplete: true,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalBytes, 0, { sent: formatBytes(0), size: formatBytes(totalBytes) });
  return {
    // The multipart envelope adds a few hundred bytes to the document itself.
    update: (sentBytes) => {
      const value = Math.min(sentBytes, totalBytes);
      bar.update(value, { sent: formatBytes(value) });
    },
    stop: () => bar.stop(),
  };
}
