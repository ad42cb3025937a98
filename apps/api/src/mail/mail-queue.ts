import { Inject, Injectable } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import type { CodePurpose } from './mail-messages.js';

/**
 * A mail to send. Jobs carry only the address and what to send: the worker looks the account up
 * and makes any code itself, so neither codes nor whether an address has an account ever sit in
 * the queue or shape how long the request that queued it took.
 */
export type MailJob =
  | { kind: 'code'; purpose: CodePurpose; email: string }
  | { kind: 'registration-attempt'; email: string }
  // A notification by id: the worker reads it and its owner's address when it sends.
  | { kind: 'notification'; id: string }
  // The visits of one share that went over the mail cap, in one mail.
  | { kind: 'notification-summary'; shareId: string }
  // An invitation to a workspace: its link is shown to the inviter as well, so it may travel in the job.
  | { kind: 'workspace-invitation'; email: string; workspaceName: string; inviter: string; role: string; url: string };

/**
 * A refused or unreachable SMTP server is retried after 2 s, 4 s, 8 s, 16 s (half a minute in all,
 * well inside a code's ten minutes); a permanent refusal (5xx) is not retried at all.
 */
export const MAIL_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: true,
  removeOnFail: { count: 100 },
};

/** Puts mails on the `mail` queue; the worker (ROLE all or worker) sends them. Nothing without SMTP_URL. */
@Injectable()
export class MailQueue {
  constructor(
    private readonly queues: QueueService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  get enabled(): boolean {
    return Boolean(this.runtime.env.SMTP_URL);
  }

  async enqueue(job: MailJob): Promise<void> {
    if (!this.enabled) return;
    await this.queues.queue(QueueName.mail).add(job.kind, job, MAIL_JOB_OPTIONS);
  }

  /** The invitation to a workspace, to the invited address (nothing without SMTP_URL). */
  async enqueueInvitation(
    email: string,
    invitation: { workspaceName: string; inviter: string; role: string; url: string },
  ): Promise<void> {
    await this.enqueue({ kind: 'workspace-invitation', email, ...invitation });
  }

  /** One mail per notification; the job id is the notification's, so it is queued at most once. */
  async enqueueNotifications(ids: readonly string[]): Promise<void> {
    if (!this.enabled || ids.length === 0) return;
    await this.queues.queue(QueueName.mail).addBulk(
      ids.map((id) => ({
        name: 'notification',
        data: { kind: 'notification', id } satisfies MailJob,
        opts: { ...MAIL_JOB_OPTIONS, jobId: `notification-${id}` },
      })),
    );
  }

  /** Whether a summary mail of the share is waiting to go (visits folded now will be in it). */
  async summaryPending(shareId: string): Promise<boolean> {
    if (!this.enabled) return false;
    const job = await this.queues.queue(QueueName.mail).getJob(summaryJobId(shareId));
    if (!job) return false;
    const state = await job.getState();
    return state === 'delayed' || state === 'waiting' || state === 'prioritized';
  }

  /**
   * The summary mail of a share's folded visits, `delayMs` from now so a burst lands in one mail.
   * Its job id is the share's: while one is waiting, folding more visits adds no second one.
   */
  async scheduleSummary(shareId: string, delayMs: number): Promise<void> {
    if (!this.enabled) return;
    await this.queues
      .queue(QueueName.mail)
      .add('notification-summary', { kind: 'notification-summary', shareId } satisfies MailJob, {
        ...MAIL_JOB_OPTIONS,
        jobId: summaryJobId(shareId),
        delay: delayMs,
      });
  }
}

/** The id of a share's pending summary job (one at a time per share). */
export function summaryJobId(shareId: string): string {
  return `notification-summary-${shareId}`;
}
