import { Injectable } from '@nestjs/common';
import { CollectionPasses } from './collections/collection-passes.js';
import { CollectionRepository, type CollectionFile } from './collections/collection.repository.js';
import { DocumentReadsRepository } from './visit-log/document-reads.repository.js';
import { ViewerGate } from './gate/gate.js';
import type { GateStop } from './gate/gate-stop.js';
import { PASS, newVisit, type Visit } from './gate/policies/gate-policy.js';
import { ScanStatusPolicy } from './gate/policies/scan-status.policy.js';
import { StatePolicy } from './gate/policies/state.policy.js';
import type { ScanStatus, ViewedShare } from './share-view/share-view.repository.js';
import type { ViewerRequest } from './visitor/viewer-answer.js';
import { ViewerIdentity } from './visitor/viewer-identity.js';
import type { ViewResult } from './pages/view-result.js';
import { ViewerService, backToCollection, linkPathOf } from './viewer.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the gate judges a document of a collection by: its served version's scan state. */
function scanStatusOf(file: CollectionFile): ScanStatus | null {
  if (file.versionId !== null) return 'CLEAN';
  return file.currentStatus;
}

/**
 * A collection's document, `/s/<segment>/<token>/d/<fileId>` (or `/s/<token>/d/<fileId>`): shown
 * exactly as a single share's document (watermark, copy protection, burn-after-read, the author's
 * HTML in a sandboxed frame). Within a visit the collection page admitted (its pass, whose sign-in,
 * account and allowlist place are re-checked on every request), the share is checked again and
 * nothing is counted; without one, the gate runs for the collection first,
 * and the visit it admits counts as the collection's. Every document opened is noted as a read of
 * that visit. A file outside the folder's subtree (now) is not found, whoever owns it.
 */
@Injectable()
export class CollectionViewService {
  constructor(
    private readonly viewer: ViewerService,
    private readonly collections: CollectionRepository,
    private readonly reads: DocumentReadsRepository,
    private readonly passes: CollectionPasses,
    private readonly identity: ViewerIdentity,
    private readonly gate: ViewerGate,
    private readonly state: StatePolicy,
    private readonly scanStatus: ScanStatusPolicy,
  ) {}

  async document(request: ViewerRequest, segment: string | null, token: string, fileId: string): Promise<ViewResult> {
    if (!UUID.test(fileId)) return { kind: 'not-found' };
    const share = await this.viewer.find(segment, token);
    if (!share || share.folderId === null) return { kind: 'not-found' };
    const file = await this.collections.document(share.folderId, share.ownerId, fileId);
    if (!file) return { kind: 'not-found' };
    const visitor = this.identity.visitorKey(request);
    const linkPath = linkPathOf(share, segment);
    const here = `${linkPath}/d/${file.id}`;
    // The gate judges the collection, with this document's version in place of a file's: the
    // visit is never counted for a document that cannot be shown. Its pages name the folder only.
    const judged: ViewedShare = {
      ...share,
      fileId: file.id,
      fileKind: file.kind,
      versionId: file.versionId,
      scanStatus: scanStatusOf(file),
    };
    const shown: ViewedShare = { ...judged, fileName: file.name };
    const counting = request.method !== 'HEAD';

    const admitted = await this.passes.visitOf(request, share, visitor.key);
    if (admitted !== null) {
      // The visit was admitted (and counted) already: it may have been the last one a cap allowed.
      const stop = this.stillShown(newVisit(request, { ...judged, consumed: false }, visitor));
      const cookies = visitor.cookie ? [visitor.cookie] : [];
      if (stop) return { kind: 'stopped', share, stop, cookies, here };
      if (counting) await this.reads.open(admitted.visitId, file.id, share.id);
      return this.viewer.present(request, shown, {
        user: admitted.user,
        visitorKey: visitor.key,
        visitId: admitted.visitId,
        cookies,
        backUrl: backToCollection(linkPath),
      });
    }

    const visit = newVisit(request, judged, visitor);
    const stop = await this.gate.pass(visit);
    if (stop) return { kind: 'stopped', share, stop, cookies: visit.cookies, here };
    const { visitId, after } = this.viewer.admitted(request, share, visit.admission!, visit.user, visitor.key);
    await this.reads.open(visitId, file.id, share.id);
    return this.viewer.present(request, shown, {
      user: visit.user,
      visitorKey: visitor.key,
      visitId,
      cookies: [...visit.cookies, this.passes.issue(share, visitId, visitor.key, linkPath, visit.user)],
      after,
      backUrl: backToCollection(linkPath),
    });
  }

  /** Within an admitted visit: the share must still be live and the document still servable. */
  private stillShown(visit: Visit): GateStop | null {
    for (const policy of [this.state, this.scanStatus]) {
      const step = policy.check(visit);
      if (step !== PASS) return step;
    }
    return null;
  }
}
