import type { Command } from 'commander';
import { resolveConfig } from './config.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';
import { Session } from './session.js';

/** What command actions share: the streams, output formatting and the configured service. */
export class CommandContext {
  /** Set by a command that succeeded but must still signal a finding (e.g. `validate` with errors). */
  exitCode = 0;

  constructor(readonly io: CliIo) {}

  output(command: Command): Output {
    return new Output(this.io, Boolean(command.optsWithGlobals<{ json?: boolean }>().json));
  }

  async session(): Promise<Session> {
    return new Session(await resolveConfig(this.io.env));
  }
}
