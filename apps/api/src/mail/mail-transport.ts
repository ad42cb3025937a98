import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import type { MailMessage } from './mail-messages.js';

/** A send that will not succeed on a retry: the server refused the message or its recipient for good. */
export function isPermanentMailFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** SMTP through nodemailer (SMTP_URL), from MAIL_FROM. Used by the worker only. */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private transporter?: Transporter;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  get configured(): boolean {
    return Boolean(this.runtime.env.SMTP_URL && this.runtime.env.MAIL_FROM);
  }

  async send(to: string, message: MailMessage): Promise<void> {
    if (!this.configured) throw new Error('SMTP_URL is not set');
    // A hung SMTP server must not hold a queue job forever; the job is retried with backoff.
    this.transporter ??= nodemailer.createTransport(this.runtime.env.SMTP_URL!, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as never);
    await this.transporter.sendMail({ from: this.runtime.env.MAIL_FROM, to, ...message });
  }

  onApplicationShutdown(): void {
    this.transporter?.close();
  }
}
