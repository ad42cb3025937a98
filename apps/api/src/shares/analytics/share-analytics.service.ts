import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { DocumentCache } from '../../viewer/documents/document-cache.js';
import { SectionReadsRepository } from '../../viewer/visit-log/section-reads.repository.js';
import {
  DEFAULT_ANALYTICS_DAYS,
  MAX_ANALYTICS_DAYS,
  type AnalyticsSectionDto,
  type ShareAnalyticsDto,
} from './share-analytics.dto.js';
import { ShareAnalyticsRepository, type SectionTotals } from './share-analytics.repository.js';
import { ShareVisitLogRepository } from './share-visit-log.repository.js';

/** Documents whose sections one analytics answer reads at the same time. */
const SECTION_PARSES_AT_ONCE = 4;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the console's analytics page shows of a share's visit log. */
@Injectable()
export class ShareAnalyticsService {
  constructor(
    private readonly repository: ShareAnalyticsRepository,
    private readonly log: ShareVisitLogRepository,
    private readonly documents: DocumentCache,
    private readonly served: SectionReadsRepository,
  ) {}

  async summary(userId: string, shareId: string, daysParam: string | undefined): Promise<ShareAnalyticsDto> {
    const days = daysParam === undefined ? DEFAULT_ANALYTICS_DAYS : Number(daysParam);
    if (!Number.isInteger(days) || days < 1 || days > MAX_ANALYTICS_DAYS) {
      throw AppError.validation(`days 必须是 1 到 ${MAX_ANALYTICS_DAYS} 之间的整数`, 'days');
    }
    if (!UUID.test(shareId) || !(await this.log.owns(userId, shareId))) throw AppError.notFound('分享不存在');
    const [perDay, engagement, topReferrers, devices, sections] = await Promise.all([
      this.repository.perDay(shareId, days),
      this.repository.engagement(shareId, days),
      this.repository.top(shareId, days, 'referrer', 10),
      this.repository.top(shareId, days, 'device', 4),
      this.sections(shareId, days),
    ]);
    return {
      days: perDay,
      humanVisits: perDay.reduce((sum, day) => sum + day.human, 0),
      automatedVisits: perDay.reduce((sum, day) => sum + day.automated, 0),
      sampledVisits: engagement.sampled,
      measuredVisits: engagement.measured,
      medianDurationMs: engagement.medianDurationMs,
      completionRate: engagement.measured === 0 ? null : Math.round((engagement.completed / engagement.measured) * 1000) / 1000,
      depthHistogram: engagement.histogram,
      topReferrers,
      devices,
      sections,
    };
  }

  /**
   * Every section of the version the share serves now of each document (a single share's file,
   * and every document opened or read in the period), with what was read of it; a section read in
   * an earlier version beyond the current one's count keeps the heading stored with its reads. A
   * document the share no longer serves shows only the sections read.
   */
  private async sections(shareId: string, days: number): Promise<AnalyticsSectionDto[]> {
    const [totals, opened, own] = await Promise.all([
      this.repository.sections(shareId, days),
      this.repository.documentsRead(shareId, days),
      this.served.served(shareId, null),
    ]);
    const byFile = new Map<string, { fileName: string; read: Map<number, SectionTotals> }>();
    for (const fileId of own ? [own.fileId, ...opened] : opened) byFile.set(fileId, { fileName: '', read: new Map() });
    for (const total of totals) {
      const file = byFile.get(total.fileId) ?? { fileName: '', read: new Map<number, SectionTotals>() };
      file.fileName = total.fileName;
      file.read.set(total.index, total);
      byFile.set(total.fileId, file);
    }
    const sectionsOf = async ([fileId, file]: [string, { fileName: string; read: Map<number, SectionTotals> }]) => {
      const version = own?.fileId === fileId ? own : await this.served.served(shareId, fileId);
      const current = version?.versionId ? ((await this.documents.sections(version.versionId, version.kind)) ?? []) : [];
      const count = Math.max(current.length, ...[...file.read.keys()].map((index) => index + 1));
      const rows: AnalyticsSectionDto[] = [];
      for (let index = 0; index < count; index++) {
        const read = file.read.get(index);
        const heading = current[index]?.heading ?? read?.heading;
        if (heading === undefined) continue;
        rows.push({
          fileId,
          fileName: version?.fileName ?? file.fileName,
          index,
          heading,
          readers: read?.readers ?? 0,
          medianSeconds: read?.medianMs == null ? null : Math.round(read.medianMs / 100) / 10,
        });
      }
      return rows;
    };
    // A few documents at a time: a document's sections may have to be parsed (once per version,
    // then cached), and a collection read widely must not start hundreds of parses at once.
    const entries = [...byFile];
    const files: AnalyticsSectionDto[][] = [];
    for (let start = 0; start < entries.length; start += SECTION_PARSES_AT_ONCE) {
      files.push(...(await Promise.all(entries.slice(start, start + SECTION_PARSES_AT_ONCE).map(sectionsOf))));
    }
    return files
      .filter((rows) => rows.length > 0)
      .sort((a, b) => a[0]!.fileName.localeCompare(b[0]!.fileName) || a[0]!.fileId.localeCompare(b[0]!.fileId))
      .flat();
  }
}
