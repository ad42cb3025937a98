import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { DEFAULT_ANALYTICS_DAYS, MAX_ANALYTICS_DAYS, type ShareAnalyticsDto } from './share-analytics.dto.js';
import { ShareAnalyticsRepository } from './share-analytics.repository.js';
import { ShareVisitLogRepository } from './share-visit-log.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the console's analytics page shows of a share's visit log. */
@Injectable()
export class ShareAnalyticsService {
  constructor(
    private readonly repository: ShareAnalyticsRepository,
    private readonly log: ShareVisitLogRepository,
  ) {}

  async summary(userId: string, shareId: string, daysParam: string | undefined): Promise<ShareAnalyticsDto> {
    const days = daysParam === undefined ? DEFAULT_ANALYTICS_DAYS : Number(daysParam);
    if (!Number.isInteger(days) || days < 1 || days > MAX_ANALYTICS_DAYS) {
      throw AppError.validation(`days 必须是 1 到 ${MAX_ANALYTICS_DAYS} 之间的整数`, 'days');
    }
    if (!UUID.test(shareId) || !(await this.log.owns(userId, shareId))) throw AppError.notFound('分享不存在');
    const [perDay, engagement, topReferrers, devices] = await Promise.all([
      this.repository.perDay(shareId, days),
      this.repository.engagement(shareId, days),
      this.repository.top(shareId, days, 'referrer', 10),
      this.repository.top(shareId, days, 'device', 4),
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
    };
  }
}
