import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NEXT_CURSOR_DESCRIPTION } from '../../common/api-page-queries.decorator.js';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../common/text/text-rules.js';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../webhook-event.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhook-target.js';

export class CreateWebhookDto {
  @ApiProperty({
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://hooks.example.com/sharedown',
    description: 'http or https, without credentials; must not resolve to a private, loopback or link-local address',
  })
  @IsString({ message: 'url 必须是字符串' })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: `url 最长 ${MAX_WEBHOOK_URL_LENGTH} 个字符` })
  @NoControlCharacters('url')
  url: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] }, minItems: 1, example: ['share_visited'] })
  @IsArray({ message: 'events 必须是事件名数组' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length * 4, { message: 'events 元素过多' })
  @IsString({ each: true, message: 'events 的每一项必须是事件名字符串' })
  @NoControlCharacters('events 的每一项', { each: true })
  events: string[];
}

export class UpdateWebhookDto {
  @ApiProperty({ description: 'false pauses deliveries, true resumes them (counts toward the 10 active webhooks)' })
  @IsBoolean({ message: 'active 必须是布尔值' })
  active: boolean;
}

export class WebhookDto {
  @ApiProperty() id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } }) events: WebhookEventName[];
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class CreatedWebhookDto {
  @ApiProperty({ type: WebhookDto }) webhook: WebhookDto;
  @ApiProperty({ description: 'HMAC-SHA256 signing secret (256 bits); returned only in this response' }) secret: string;
}

export class WebhookResponseDto {
  @ApiProperty({ type: WebhookDto }) webhook: WebhookDto;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] }) webhooks: WebhookDto[];
  @ApiPropertyOptional({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION })
  nextCursor?: string | null;
  @ApiPropertyOptional({
    type: 'integer',
    description: 'with `limit` or `cursor`: how many webhooks `q` lets through, over all pages',
  })
  total?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description: 'with `limit` or `cursor`: how many of all the webhooks are active (at most 10)',
  })
  activeCount?: number;
}

export class WebhookDeliveryDto {
  @ApiProperty({ description: 'also sent as the X-Service-Delivery header' }) id: string;
  @ApiProperty({ description: 'the event occurrence; shared by every webhook that received it' }) eventId: string;
  @ApiProperty({ enum: ['share_visited', 'share_reported', 'request_upload_received'] }) event: string;
  @ApiProperty({
    enum: ['success', 'failed', 'timeout', 'error'],
    description: 'success: 2xx; failed: any other status; timeout: not finished within 5 s; error: no HTTP answer',
  })
  status: 'success' | 'failed' | 'timeout' | 'error';
  @ApiProperty({ type: 'integer', nullable: true }) responseCode: number | null;
  @ApiProperty({ type: 'integer', example: 1, description: 'always 1: deliveries are never retried' }) attempts: number;
  @ApiProperty({ format: 'date-time', description: 'when the attempt started' }) deliveredAt: string;
  @ApiProperty({ type: 'integer' }) durationMs: number;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'first 1 KB of the response body; for timeout or error, what went wrong',
  })
  responseBody: string | null;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'the latest 50, newest first' }) deliveries: WebhookDeliveryDto[];
}
