import { ApiProperty } from '@nestjs/swagger';

export class SessionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'the session of this request' }) current: boolean;
  @ApiProperty({ enum: ['password', 'oidc', 'email-code', 'password-reset'], description: 'how the session was started' })
  method: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'last request, to the minute' }) lastSeenAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'the User-Agent that started the session' }) userAgent: string | null;
  @ApiProperty({ description: 'short name of browser and system', example: 'Firefox on Linux' }) device: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'masked network (/24 or /48), never the full address',
    example: '203.0.113.0/24',
  })
  ipPrefix: string | null;
}

export class SessionListDto {
  @ApiProperty({ type: [SessionDto], description: 'live sessions, newest first' }) sessions: SessionDto[];
}

export class EndedSessionsDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'how many sessions were ended' }) ended: number;
}
