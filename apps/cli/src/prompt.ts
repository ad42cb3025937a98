import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { CliIo } from './io.js';

/** Asks one question on the terminal (on stderr); with `hidden` the typed answer is not echoed (for tokens). */
export async function prompt(io: CliIo, question: string, hidden = false): Promise<string> {
  let muted = false;
  const echo = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) io.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output: echo, terminal: true });
  try {
    const answer = rl.question(question);
    // The question is written synchronously above; muting now hides only what is typed.
    muted = hidden;
    return (await answer).trim();
  } finally {
    rl.close();
    if (hidden) io.stderr.write('\n');
  }
}
