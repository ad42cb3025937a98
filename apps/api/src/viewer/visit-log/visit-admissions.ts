import { Injectable } from '@nestjs/common';
import { isUnavailable } from '../../common/database-errors.js';
import { KeyedBatcher } from './keyed-batcher.js';
import { ShareViewRepository, type Admission, type OpenedShare, type VisitRequest } from '../share-view/share-view.repository.js';

const MAX_BATCH = 256;

/**
 * Admission with natural batching. Visits to one share serialize on its row lock anyway; instead
 * of each request queueing there (one process wake-up per hand-over), this process keeps at most
 * one admission call per share in flight and sends the visits that arrived meanwhile together in
 * the next call: one lock, one counter update and one commit for many visits. Every visit is still
 * judged on its own, in order, so caps stay exact.
 */
@Injectable()
export class VisitAdmissions {
  private readonly admissions: KeyedBatcher<VisitRequest, Admission>;
  private readonly openings: KeyedBatcher<string, OpenedShare | null>;

  constructor(repository: ShareViewRepository) {
    // Visits queued behind a call the database did not answer get its 503 at once: sent, they would
    // wait for a connection of their own as long again, past the time a visitor is kept waiting.
    this.admissions = new KeyedBatcher((shareId, visits) => repository.admitAll(shareId, visits), MAX_BATCH, isUnavailable);
    this.openings = new KeyedBatcher(
      async (key, visitorKeys) => {
        const [segment, token] = JSON.parse(key) as [string | null, string];
        return repository.openAll(segment, token, visitorKeys);
      },
      MAX_BATCH,
      isUnavailable,
    );
  }

  admit(shareId: string, visit: VisitRequest): Promise<Admission> {
    return this.admissions.submit(shareId, visit);
  }

  /**
   * The common view in one round trip: the gate row, and the visit admitted already when the share
   * asks nothing of the visitor (see `share_open_visits`). Null: no such link.
   */
  open(segment: string | null, token: string, visitorKey: string): Promise<OpenedShare | null> {
    return this.openings.submit(JSON.stringify([segment?.toLowerCase() ?? null, token.toLowerCase()]), visitorKey);
  }
}
