import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export const MAX_VISIT_HOURS = 24 * 90;
/** A week, when the query names no range. */
export const DEFAULT_VISIT_HOURS = 168;
export const HOURS_MESSAGE = `hours 必须是 1 到 ${MAX_VISIT_HOURS} 之间的整数`;

export class ShareVisitsQueryDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_VISIT_HOURS,
    default: DEFAULT_VISIT_HOURS,
    description: 'how many hours back, ending with the current hour',
  })
  @IsOptional()
  // Query values arrive as strings (the global pipe does not transform); the range is checked by the service.
  @Matches(/^\d{1,6}$/, { message: HOURS_MESSAGE })
  hours?: string;
}

export class VisitBucketDto {
  @ApiProperty({ format: 'date-time', description: 'start of the hour (UTC)' }) hour: string;
  @ApiProperty({ type: 'integer', description: 'successful renders in that hour' }) visits: number;
}

export class ShareVisitsDto {
  @ApiProperty() shareId: string;
  @ApiProperty({ type: 'integer' }) visitCount: number;
  @ApiProperty({ type: 'integer' }) uniqueVisitCount: number;
  @ApiProperty({ type: [VisitBucketDto], description: 'one bucket per hour, oldest first, zero-filled' })
  buckets: VisitBucketDto[];
}
