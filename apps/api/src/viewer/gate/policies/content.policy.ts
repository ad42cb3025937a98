import { Injectable } from '@nestjs/common';
import { DocumentCache } from '../../documents/document-cache.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/**
 * Content first: a visit is never counted for a page that then cannot be shown. A collection's
 * page is a list, always shown (a document opened through it is checked by itself, before the gate).
 */
@Injectable()
export class ContentPolicy implements GatePolicy {
  constructor(private readonly documents: DocumentCache) {}

  async check({ share }: Visit): Promise<GateStep> {
    // A collection's page is its list; a document of it (fileId set) is checked like a file.
    if (share.folderId !== null && share.fileId === null) return PASS;
    const content =
      share.versionId === null || share.fileKind === null ? null : await this.documents.get(share.versionId, share.fileKind);
    return content === null ? { kind: 'unavailable' } : PASS;
  }
}
