import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';

export const MAX_VISIT_PAGE = 200;
export const DEFAULT_VISIT_PAGE = 50;
/** The CSV export's ceiling: the newest visits up to this many. */
export const MAX_VISIT_EXPORT = 100_000;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export class VisitLogQueryDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_VISIT_PAGE, default: DEFAULT_VISIT_PAGE })
  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: `limit 必须是 1 到 ${MAX_VISIT_PAGE} 之间的整数` })
  limit?: string;

  @ApiProperty({ required: false, description: 'nextCursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor 无效' })
  cursor?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'visits at or after this instant' })
  @IsOptional()
  @Matches(DATE_TIME, { message: 'from 必须是 ISO 8601 时间' })
  from?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'visits before this instant' })
  @IsOptional()
  @Matches(DATE_TIME, { message: 'to 必须是 ISO 8601 时间' })
  to?: string;

  @ApiProperty({ required: false, enum: ['true', 'false'], description: 'only automated visits, or only human ones' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'automated 必须是 true 或 false' })
  automated?: string;
}

/** A document opened during a visit of a collection, with how it was read. */
export class DocumentReadDto {
  @ApiProperty() fileId: string;
  @ApiProperty({ type: String, nullable: true, description: 'null once the file was deleted for good' }) fileName: string | null;
  @ApiProperty({ format: 'date-time', description: 'when the document was first opened in this visit' }) at: string;
  @ApiProperty({ type: 'integer', description: 'time the document page was visible and in use' }) durationMs: number;
  @ApiProperty({ minimum: 0, maximum: 1, description: 'the furthest point read, 0..1' }) scrollDepth: number;
  @ApiProperty({ description: 'the reader reached the end of the document' }) completed: boolean;
}

export class ShareVisitDto {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'opaque and stable per visitor; never the cookie value' }) visitorId: string;
  @ApiProperty({ description: 'the masked address prefix (IPv4 /24, IPv6 /48), as in webhook events' }) ipPrefix: string;
  @ApiProperty({ type: String, nullable: true }) referer: string | null;
  @ApiProperty({ type: String, nullable: true }) userAgent: string | null;
  @ApiProperty({ type: String, nullable: true }) browser: string | null;
  @ApiProperty({ type: String, nullable: true }) os: string | null;
  @ApiProperty({ enum: ['desktop', 'mobile', 'tablet', 'other'] }) device: 'desktop' | 'mobile' | 'tablet' | 'other';
  @ApiProperty({ type: String, nullable: true, description: "the signed-in viewer's e-mail on shares that require login" })
  loginEmail: string | null;
  @ApiProperty({ description: 'a headless browser, HTTP library or crawler' }) automated: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'time the page was visible and in use' })
  durationMs: number | null;
  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1, description: 'the furthest point read, 0..1' })
  scrollDepth: number | null;
  @ApiProperty({ description: 'the reader reached the end of the document' }) completed: boolean;
  @ApiProperty({
    type: [DocumentReadDto],
    description:
      "a collection's visit: the documents the reader opened within it, first opened first (documents opened " +
      'inside an admitted visit count no further visit); always empty for the share of a single file',
  })
  documents: DocumentReadDto[];
}

export class ShareVisitPageDto {
  @ApiProperty({ type: [ShareVisitDto], description: 'newest first' }) visits: ShareVisitDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as cursor for the next page; null on the last one' })
  nextCursor: string | null;
}
