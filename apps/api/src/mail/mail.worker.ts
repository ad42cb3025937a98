import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import type { MailJob } from './mail-queue.js';
import { MailComposer } from './mail-composer.js';
import { MailTransport, isPermanentMailFailure } from './mail-transport.js';

/** Sending waits on the SMTP server, not on CPU. */
const MAIL_CONCURRENCY = 8;

/**
 * Sends queued mail (ROLE all or worker, and only with SMTP_URL). A transient failure throws, so
 * BullMQ retries with backoff; a permanent one (5xx) ends the job. Logs never name the address
 * or carry a code.
 */
@Injectable()
export class MailWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly queues: QueueService,
    private readonly composer: MailComposer,
    private readonly transport: MailTransport,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runtime.env.ROLE === 'api' || !this.transport.configured) return;
    this.queues.worker<MailJob>(QueueName.mail, (job: Job<MailJob>) => this.process(job), { concurrency: MAIL_CONCURRENCY });
  }

  async process(job: Job<MailJob>): Promise<'sent' | 'skipped'> {
    const mail = await this.composer.compose(job.data);
    if (!mail) return 'skipped';
    try {
      await this.transport.send(mail.to, mail.message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (isPermanentMailFailure(error)) {
        this.logger.warn(`mail job ${job.id} (${job.data.kind}) refused by the SMTP server: ${reason}`);
        throw new UnrecoverableError(reason);
      }
      this.logger.warn(`mail job ${job.id} (${job.data.kind}) failed (attempt ${job.attemptsMade + 1}), will retry: ${reason}`);
      throw error;
    }
    // A failure here must not send the mail again: it is only logged.
    await mail.sent?.().catch((error: unknown) => {
      this.logger.warn(
        `mail job ${job.id} (${job.data.kind}) sent, not recorded: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    return 'sent';
  }
}
