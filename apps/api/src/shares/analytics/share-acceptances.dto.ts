import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export const MAX_ACCEPTANCE_PAGE = 200;
export const DEFAULT_ACCEPTANCE_PAGE = 50;
/** The CSV export's ceiling: the newest acceptances up to this many. */
export const MAX_ACCEPTANCE_EXPORT = 100_000;

export class AcceptanceQueryDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_ACCEPTANCE_PAGE,
    default: DEFAULT_ACCEPTANCE_PAGE,
  })
  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: `limit 必须是 1 到 ${MAX_ACCEPTANCE_PAGE} 之间的整数` })
  limit?: string;

  @ApiProperty({ required: false, description: 'nextCursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor 无效' })
  cursor?: string;
}

export class ShareAcceptanceDto {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the name the visitor typed (agreements with requireName); null otherwise',
  })
  name: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "the signed-in visitor's proven e-mail address; null for an anonymous visitor or an unproven address",
  })
  email: string | null;
  @ApiProperty({ description: 'the masked address prefix (IPv4 /24, IPv6 /48)' }) ipPrefix: string;
  @ApiProperty({ description: "the visitor's User-Agent" }) userAgent: string;
  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    description: 'the browser read from userAgent, as in the visit log',
  })
  browser?: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    description: 'the operating system read from userAgent, as in the visit log',
  })
  os?: string | null;
  @ApiProperty({
    enum: ['desktop', 'mobile', 'tablet', 'other'],
    required: false,
    description: 'the kind of device read from userAgent, as in the visit log',
  })
  device?: 'desktop' | 'mobile' | 'tablet' | 'other';
  @ApiProperty({ description: 'SHA-256 (hex) of the agreement text accepted (Share.agreement.sha256 at the time)' })
  agreementSha256: string;
}

export class ShareAcceptancePageDto {
  @ApiProperty({ type: [ShareAcceptanceDto], description: 'newest first' }) acceptances: ShareAcceptanceDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as cursor for the next page; null on the last one' })
  nextCursor: string | null;
}
