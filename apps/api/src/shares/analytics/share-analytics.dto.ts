import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export const MAX_ANALYTICS_DAYS = 365;
export const DEFAULT_ANALYTICS_DAYS = 30;

export class ShareAnalyticsQueryDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_ANALYTICS_DAYS, default: DEFAULT_ANALYTICS_DAYS })
  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: `days 必须是 1 到 ${MAX_ANALYTICS_DAYS} 之间的整数` })
  days?: string;
}

export class AnalyticsDayDto {
  @ApiProperty({ format: 'date', description: 'UTC day' }) day: string;
  @ApiProperty({ type: 'integer' }) human: number;
  @ApiProperty({ type: 'integer' }) automated: number;
}

export class AnalyticsCountDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer' }) visits: number;
}

export class AnalyticsSectionDto {
  @ApiProperty({ format: 'uuid', description: 'the document the section belongs to (for a single share: its file)' })
  fileId: string;
  @ApiProperty({ description: "the document's name" }) fileName: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'position of the section in the document: each h1, h2 or h3 heading starts one, 0 is the first',
  })
  index: number;
  @ApiProperty({ description: "the heading's text (trimmed, whitespace collapsed, at most 200 characters)" })
  heading: string;
  @ApiProperty({
    type: 'integer',
    description:
      'visits of the period whose page had the section on screen for at least one second (readers falling off = where they stop)',
  })
  readers: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'median seconds those readers had the section on screen, one decimal (where they linger); null without readers',
  })
  medianSeconds: number | null;
}

export class ShareAnalyticsDto {
  @ApiProperty({ type: [AnalyticsDayDto], description: 'logged visits per UTC day, oldest first, zero-filled' })
  days: AnalyticsDayDto[];
  @ApiProperty({ type: 'integer' }) humanVisits: number;
  @ApiProperty({ type: 'integer' }) automatedVisits: number;
  @ApiProperty({
    type: 'integer',
    description: 'the newest human visits of the period (at most 20000) that engagement, referrers and devices are read from',
  })
  sampledVisits: number;
  @ApiProperty({ type: 'integer', description: 'sampled visits whose page reported engagement' }) measuredVisits: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'median time of the measured human visits' })
  medianDurationMs: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'share of measured human visits that reached the end, 0..1' })
  completionRate: number | null;
  @ApiProperty({ type: [Number], description: 'measured human visits by furthest depth, ten buckets: 0-10 %, …, 90-100 %' })
  depthHistogram: number[];
  @ApiProperty({ type: [AnalyticsCountDto], description: 'the ten most frequent referrer hosts of human visits; "" = none' })
  topReferrers: AnalyticsCountDto[];
  @ApiProperty({ type: [AnalyticsCountDto], description: 'human visits by device' }) devices: AnalyticsCountDto[];
  @ApiProperty({
    type: [AnalyticsSectionDto],
    description:
      'reading by section, ordered by document (name) then index: every section of the version the share serves now, ' +
      'and of a collection every document read in the period; empty for text documents. Measured by the viewer page ' +
      '(never for visitors sending DNT or Sec-GPC), read from the newest 20000 visits of the period',
  })
  sections: AnalyticsSectionDto[];
}
