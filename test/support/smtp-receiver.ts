import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One message as the receiver got it, parsed. */
export interface ReceivedMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

/**
 * A real SMTP server on a free 127.0.0.1 port (no TLS, no authentication) that keeps every
 * message. `refuseNext` makes it answer the next messages with a transient or permanent error.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  private server?: SMTPServer;
  private waiters: Array<() => void> = [];
  private refusals: number[] = [];
  /** Messages refused so far (by `refuseNext`). */
  refused = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => void this.receive(stream, session, callback),
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Answers the next `count` messages with `code` (4xx: try again later; 5xx: never). */
  refuseNext(count: number, code = 451): void {
    for (let i = 0; i < count; i++) this.refusals.push(code);
  }

  to(address: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** The first message to `address` (after `after` of them) matching `predicate`, waiting at most `timeoutMs`. */
  async waitFor(
    address: string,
    predicate: (mail: ReceivedMail) => boolean = () => true,
    options: { timeoutMs?: number; after?: number } = {},
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    for (;;) {
      const found = this.to(address)
        .slice(options.after ?? 0)
        .find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching mail to ${address} within the wait; got ${this.to(address).length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The six-digit code of a message. */
  static codeOf(mail: ReceivedMail): string {
    const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
    if (!match) throw new Error(`no code in: ${mail.text}`);
    return match[1]!;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const refusal = this.refusals.shift();
    if (refusal !== undefined) {
      this.refused++;
      callback(Object.assign(new Error('refused by the test receiver'), { responseCode: refusal }));
      return;
    }
    const parsed = await simpleParser(Buffer.concat(chunks));
    this.messages.push({
      to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      receivedAt: Date.now(),
    });
    callback();
    for (const wake of this.waiters.splice(0)) wake();
  }
}
