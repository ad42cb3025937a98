import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { CliIo } from './io.js';

/** Asks one question on the terminal; with `hidden` the typed answer is not echoed (for tokens). */
export async function prompt(io: CliIo, question: string, hidden = false): Promise<string> {
  io.stderr.write(question);
  let muted = false;
  const echo = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) io.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output: echo, terminal: true });
  muted = hidden;
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    if (hidden) io.stderr.write('\n');
  }
}
