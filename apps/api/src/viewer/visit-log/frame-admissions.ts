import { Injectable } from '@nestjs/common';
import { isUnavailable } from '../../common/database-errors.js';
import { KeyedBatcher } from './keyed-batcher.js';
import { ShareViewRepository, type FrameAdmission, type FrameTicketUse } from '../share-view/share-view.repository.js';

const MAX_BATCH = 256;

/** A frame fetch's ticket and the share's version it is for. */
export interface FrameTicketRequest extends FrameTicketUse {
  shareId: string;
  versionId: string;
}

/**
 * Frame tickets used with natural batching, as visits are admitted (visit-admissions.ts): every
 * page view of an HTML share is followed by its frame's fetch, so the frames of a busy share
 * arrive together. This process keeps at most one call per share and version in flight and sends
 * the tickets that arrived meanwhile together in the next: the share is judged once and the
 * tickets are recorded by one insert and one commit. Each ticket is still judged on its own
 * (expiry, used before), so every fetch gets the answer it would get alone.
 */
@Injectable()
export class FrameAdmissions {
  private readonly uses: KeyedBatcher<FrameTicketUse, FrameAdmission | null>;

  constructor(repository: ShareViewRepository) {
    // Fetches queued behind a call the database did not answer get its 503 at once, as visits do.
    this.uses = new KeyedBatcher(
      (key, tickets) => {
        const [shareId, versionId] = JSON.parse(key) as [string, string];
        return repository.useFrameTickets(shareId, versionId, tickets);
      },
      MAX_BATCH,
      isUnavailable,
    );
  }

  /**
   * Uses the ticket: what the frame needs of its share, or null when the share no longer shows
   * the version, or the ticket expired or was used before. See `ShareViewRepository.useFrameTickets`.
   */
  use(ticket: FrameTicketRequest): Promise<FrameAdmission | null> {
    const { shareId, versionId, ...use } = ticket;
    return this.uses.submit(JSON.stringify([shareId, versionId]), use);
  }
}
