import clamdjs from 'clamdjs';
import { withTimeout } from '../common/with-timeout.js';
import { ScanUnavailableError, type ScanVerdict, type Scanner } from './scanner.js';

/**
 * Reads clamd's INSTREAM answer: `stream: OK`, `stream: <signature> FOUND`, or an error
 * line such as `INSTREAM size limit exceeded. ERROR`.
 */
export function parseClamdReply(reply: string): ScanVerdict {
  const line = reply.replace(/[\0\r\n]+$/g, '').trim();
  const body = line.startsWith('stream:') ? line.slice('stream:'.length).trim() : line;
  if (body === 'OK') return { infected: false };
  const found = /^(.+?)\s+FOUND$/.exec(body);
  if (found) return { infected: true, signature: found[1]! };
  throw new ScanUnavailableError(`clamd answered: ${line || '(nothing)'}`);
}

/** clamd over TCP (INSTREAM), through clamdjs. */
export class ClamdScanner implements Scanner {
  readonly name = 'clamd';
  private readonly client;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 20_000,
  ) {
    this.client = clamdjs.createScanner(host, port);
  }

  async scan(content: Buffer): Promise<ScanVerdict> {
    let reply: string;
    try {
      // clamdjs arms its timer only until the first byte of the answer; a stalled answer
      // after that would hang the job, so the whole exchange gets a deadline too.
      reply = await withTimeout(this.client.scanBuffer(content, this.timeoutMs), this.timeoutMs + 1000);
    } catch (error) {
      throw new ScanUnavailableError(
        `clamd at ${this.host}:${this.port} is unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return parseClamdReply(reply);
  }
}
