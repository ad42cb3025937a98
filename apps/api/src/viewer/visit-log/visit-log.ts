import { Injectable, Logger } from '@nestjs/common';
import { MailQueue } from '../../mail/mail-queue.js';
import { KeyedBatcher, type Gathering } from './keyed-batcher.js';
import { VisitLogRepository, type VisitLogEntry } from './visit-log.repository.js';

/** One key: every visit of this process goes into the same stream of batches. */
const LOG = 'visits';
/** Under load the next insert waits up to 10 ms for 256 visits: the log is written after the answer anyway. */
const LOG_GATHERING: Gathering = { waitMs: 10, until: 256 };

/**
 * Writes the visit log, and the notifications of the visits, off the answer's path: a visit is handed over after its page has gone out,
 * and the visits that arrive while one insert runs go together into the next one. A failed write
 * loses those log rows (the counters, written at admission, are exact regardless) and is logged.
 */
@Injectable()
export class VisitLog {
  private readonly logger = new Logger('VisitLog');
  private readonly batches: KeyedBatcher<VisitLogEntry, void>;

  constructor(repository: VisitLogRepository, mail: MailQueue) {
    this.batches = new KeyedBatcher(
      async (_key, entries) => {
        // The notifications of shares that ask for them are written by the same statement.
        const notified = await repository.insertAll(entries);
        try {
          await mail.enqueueNotifications(notified);
        } catch (error) {
          this.logger.warn(`notification mail not queued: ${error instanceof Error ? error.message : String(error)}`);
        }
        return entries.map(() => undefined);
      },
      1_000,
      () => false,
      LOG_GATHERING,
    );
  }

  /** Resolves once the visit's row is written, or its write has failed and been logged; never rejects. */
  record(entry: VisitLogEntry): Promise<void> {
    // Not an async function, and one shared handler: a visit waits for its batch holding no frame or closure of its own.
    return this.batches.submit(LOG, entry).catch(this.writeFailed);
  }

  private readonly writeFailed = (error: unknown): void => {
    this.logger.warn(`visit log write failed: ${error instanceof Error ? error.message : String(error)}`);
  };
}
