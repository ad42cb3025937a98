import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { deleteStaleInvites } from '../admin/invites.repository.js';
import { deleteExpiredEmailCodes } from '../auth/email/email-codes.repository.js';
import { SessionsService } from '../auth/sessions/sessions.service.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ShareViewRepository } from '../viewer/share-view/share-view.repository.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { VisitLogRepository } from '../viewer/visit-log/visit-log.repository.js';
import { deleteAcceptancesOlderThan } from '../viewer/gate/agreement-acceptances.repository.js';
import { SectionReadsRepository } from '../viewer/visit-log/section-reads.repository.js';
import { DocumentReadsRepository } from '../viewer/visit-log/document-reads.repository.js';
import { NotificationDigests } from '../notifications/notification-digests.js';
import { NotificationsRepository } from '../notifications/notifications.repository.js';
import { HousekeepingRepository } from './housekeeping.repository.js';

export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/** Notifications are kept 90 days, and never longer than the visits they tell of. */
export const NOTIFICATION_RETENTION_DAYS = 90;

/** One kind of leftover and how to delete it; answers how many rows went. */
interface Sweep {
  name: string;
  run: () => Promise<number>;
}

/**
 * Deletes what only grows otherwise: expired console sessions, rate-limit buckets (most are
 * keyed by client address) that have refilled long ago, expired records of used frame tickets,
 * long-expired e-mail codes, invitations used or expired long ago, audit events past their
 * retention and logged visits (and the documents they opened) older than theirs; and it writes the due daily digests of
 * notifications. Runs in the worker (ROLE all or worker) at start and every ten minutes.
 */
@Injectable()
export class Housekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly sweeps: Sweep[];

  constructor(
    private readonly db: DataSource,
    private readonly housekeeping: HousekeepingRepository,
    sessions: SessionsService,
    limiter: RateLimiter,
    viewer: ShareViewRepository,
    audit: AuditRepository,
    visitLog: VisitLogRepository,
    notifications: NotificationsRepository,
    sectionReads: SectionReadsRepository,
    documentReads: DocumentReadsRepository,
    private readonly digests: NotificationDigests,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.sweeps = [
      { name: 'expired sessions', run: () => sessions.deleteExpired() },
      { name: 'idle rate-limit buckets', run: () => limiter.sweep() },
      { name: 'used frame tickets past their expiry', run: () => viewer.deleteExpiredFrameTickets() },
      { name: 'used sign-in carry-over tickets past their expiry', run: () => sessions.deleteExpiredLoginTickets() },
      { name: 'e-mail codes expired over a day ago', run: () => deleteExpiredEmailCodes(db) },
      { name: 'invitations used or expired over 90 days ago', run: () => deleteStaleInvites(db) },
      { name: 'audit events past AUDIT_RETENTION_DAYS', run: () => audit.deleteOlderThan(runtime.env.AUDIT_RETENTION_DAYS) },
      { name: 'visits past VISIT_RETENTION_DAYS', run: () => visitLog.deleteOlderThan(runtime.env.VISIT_RETENTION_DAYS) },
      {
        name: 'agreement acceptances past VISIT_RETENTION_DAYS',
        run: () => deleteAcceptancesOlderThan(db, runtime.env.VISIT_RETENTION_DAYS),
      },
      {
        name: 'section reads past VISIT_RETENTION_DAYS',
        run: () => sectionReads.deleteOlderThan(runtime.env.VISIT_RETENTION_DAYS),
      },
      {
        name: 'document reads past VISIT_RETENTION_DAYS',
        run: () => documentReads.deleteOlderThan(runtime.env.VISIT_RETENTION_DAYS),
      },
      {
        name: 'notifications past their retention',
        run: () => notifications.deleteOlderThan(Math.min(NOTIFICATION_RETENTION_DAYS, runtime.env.VISIT_RETENTION_DAYS)),
      },
    ];
  }

  onApplicationBootstrap(): void {
    if (this.runtime.env.ROLE === 'api') return;
    this.running = this.sweepOnce();
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce();
    }, HOUSEKEEPING_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One round of every sweep, unless another worker is sweeping right now. */
  async sweepOnce(): Promise<void> {
    try {
      await this.db.transaction(async (manager) => {
        // Only one worker sweeps at a time; the others skip that round.
        if (!(await this.housekeeping.tryLockForTransaction(manager))) return;
        for (const sweep of this.sweeps) {
          const deleted = await sweep.run();
          if (deleted) this.logger.log(`deleted ${deleted} ${sweep.name}`);
        }
        // The previous UTC day's digests; a day already written writes nothing (unique per owner and day).
        const digests = await this.digests.writeDue();
        if (digests) this.logger.log(`wrote ${digests} daily digests`);
      });
    } catch (error) {
      this.logger.warn(`housekeeping failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = undefined;
    }
  }
}
