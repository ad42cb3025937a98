import { UnrecoverableError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../common/runtime.js';
import { loadEnv } from '../config/env.js';
import { MailComposer } from './mail-composer.js';
import type { MailMessage } from './mail-messages.js';
import type { MailJob } from './mail-queue.js';
import { MailTransport } from './mail-transport.js';
import { MailWorker } from './mail.worker.js';

const runtime: Runtime = {
  env: loadEnv({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'noreply@example.com' }),
  databaseUrl: 'postgres://unused',
  sessionSecret: 'a session secret of at least thirty-two characters',
};
const MESSAGE: MailMessage = { subject: 's', text: 't', html: 'h' };

class FakeComposer extends MailComposer {
  constructor(private readonly mail: { to: string; message: MailMessage } | null) {
    super(null as never, null as never, null as never, runtime, null as never, null as never, null as never);
  }

  override async compose() {
    return this.mail;
  }
}

class FakeTransport extends MailTransport {
  readonly sent: string[] = [];

  constructor(private readonly failure?: Error) {
    super(runtime);
  }

  override async send(to: string): Promise<void> {
    if (this.failure) throw this.failure;
    this.sent.push(to);
  }
}

const job = { id: '7', attemptsMade: 0, data: { kind: 'code', purpose: 'sign-in', email: 'ann@example.com' } } as Job<MailJob>;
const smtpError = (responseCode: number) => Object.assign(new Error(`${responseCode} no`), { responseCode });

describe(MailWorker.name, () => {
  it('sends what the composer made', async () => {
    const transport = new FakeTransport();
    const sut = new MailWorker(null as never, new FakeComposer({ to: 'ann@example.com', message: MESSAGE }), transport, runtime);
    expect(await sut.process(job)).toBe('sent');
    expect(transport.sent).toEqual(['ann@example.com']);
  });

  it('sends nothing when the composer decides so', async () => {
    const transport = new FakeTransport();
    const sut = new MailWorker(null as never, new FakeComposer(null), transport, runtime);
    expect(await sut.process(job)).toBe('skipped');
    expect(transport.sent).toEqual([]);
  });

  it('lets a transient SMTP failure be retried', async () => {
    const failure = smtpError(451);
    const sut = new MailWorker(
      null as never,
      new FakeComposer({ to: 'a@example.com', message: MESSAGE }),
      new FakeTransport(failure),
      runtime,
    );
    await expect(sut.process(job)).rejects.toBe(failure);
  });

  it('ends the job on a permanent refusal', async () => {
    const sut = new MailWorker(
      null as never,
      new FakeComposer({ to: 'a@example.com', message: MESSAGE }),
      new FakeTransport(smtpError(550)),
      runtime,
    );
    await expect(sut.process(job)).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
