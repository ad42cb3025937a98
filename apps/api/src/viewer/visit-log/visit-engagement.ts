import { Injectable } from '@nestjs/common';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { DocumentCache } from '../documents/document-cache.js';
import { DocumentReadsRepository } from './document-reads.repository.js';
import { SectionReadsRepository } from './section-reads.repository.js';
import { parseSectionReport, sectionReads } from './section-report.js';
import { ViewerIdentity } from '../visitor/viewer-identity.js';
import type { Engagement } from './visit-log.repository.js';

/** A beacon's form is five short fields; anything longer is not from the viewer page. */
export const MAX_BEACON_BYTES = 512;
/** A page sends one every few seconds at most, and when it is hidden or closed. */
const BEACONS_PER_MINUTE = 30;
const MAX_DURATION_MS = 24 * 3600_000;

export type BeaconOutcome = 'recorded' | 'ignored' | 'malformed' | 'throttled';

function parseEngagement(form: Record<string, string>): Engagement | null {
  const { t, d, c } = form;
  if (t === undefined || d === undefined || !/^\d{1,8}$/.test(t) || !/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(d)) return null;
  if (c !== undefined && c !== '0' && c !== '1') return null;
  return { durationMs: Math.min(Number(t), MAX_DURATION_MS), scrollDepth: Number(d), completed: c === '1' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The viewer page's engagement beacons: how long the page was visible and in use, how far the
 * reader scrolled, whether the end was reached, and how long each section of the document was on
 * screen (`s`, see section-report.ts and SectionReadsRepository.record). A beacon names its visit and document by the
 * value the page was given, `sign(shareId.visitId.fileId)` (fileId: the document shown; a single
 * file's share: its file), so it can only ever update that one visit's read of that document;
 * the database only raises what it stored (see DocumentReadsRepository.engage), and visits of
 * visitors who asked not to be tracked are not updated at all.
 */
@Injectable()
export class VisitEngagement {
  constructor(
    private readonly identity: ViewerIdentity,
    private readonly repository: DocumentReadsRepository,
    private readonly limiter: RateLimiter,
    private readonly documents: DocumentCache,
    private readonly sections: SectionReadsRepository,
  ) {}

  async report(form: Record<string, string>): Promise<BeaconOutcome> {
    const signed = this.identity.visits.verify(form.v);
    const engagement = parseEngagement(form);
    if (signed === null || engagement === null) return 'malformed';
    // Pages served before documents were named carry only `shareId.visitId`.
    const [shareId, visitId, fileId, ...rest] = signed.split('.');
    if (!shareId || !visitId || rest.length > 0 || ![shareId, visitId, fileId ?? shareId].every((id) => UUID.test(id))) {
      return 'malformed';
    }
    const decision = await this.limiter.consume(`visit-beacon:${visitId}:${fileId ?? ''}`, BEACONS_PER_MINUTE, 60);
    if (!decision.allowed) return 'throttled';
    const report = parseSectionReport(form.s);
    const [engaged] = await Promise.all([
      this.repository.engage(visitId, shareId, fileId ?? null, engagement),
      report.size > 0 ? this.recordSections(shareId, visitId, fileId ?? null, report) : undefined,
    ]);
    return engaged ? 'recorded' : 'ignored';
  }

  /** The reported sections the served version has, through the cached sections of that version. */
  private async recordSections(shareId: string, visitId: string, fileId: string | null, report: Map<number, number>) {
    const served = await this.sections.served(shareId, fileId);
    if (served?.versionId == null) return;
    const sections = await this.documents.sections(served.versionId, served.kind);
    if (sections === null) return;
    await this.sections.record(visitId, shareId, served.fileId, sectionReads(report, sections));
  }
}
