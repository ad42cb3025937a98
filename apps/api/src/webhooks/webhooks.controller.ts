import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf, searchText } from '../common/page-cursor.js';
import {
  CreateWebhookDto,
  CreatedWebhookDto,
  UpdateWebhookDto,
  WebhookDeliveryListDto,
  WebhookListDto,
  WebhookResponseDto,
} from './dto/webhook.dto.js';
import { WEBHOOKS_CURSOR, WebhooksService } from './webhooks.service.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({
    summary: "The account's webhooks, newest first",
    description:
      'Without `limit` and `cursor` the answer holds every webhook. With either, it holds one page, `nextCursor`, ' +
      '`total` (the count over all pages) and `activeCount`; `q` then keeps the webhooks whose URL contains it.',
  })
  @ApiQuery({ name: 'q', required: false, type: String, description: 'with paging: a part of the URL' })
  @ApiPageQueries()
  @ApiOkResponse({ type: WebhookListDto })
  @ApiErrors(400, 401, 403)
  async list(
    @CurrentAuth() auth: AuthContext,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
    @Query('q') q?: string,
  ): Promise<WebhookListDto> {
    const page = pageRequestOf(WEBHOOKS_CURSOR, { limit, cursor });
    if (page) return this.webhooks.page(auth.user.id, searchText(q), page);
    return { webhooks: await this.webhooks.list(auth.user.id) };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Subscribe a URL to share events; the signing secret is shown in this answer only' })
  @ApiOkResponse({ type: CreatedWebhookDto, description: 'the secret is returned only here' })
  @ApiErrors(400, 401, 403, 409)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateWebhookDto) {
    return this.webhooks.create(auth.user.id, body);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Pause or resume a webhook' })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'the webhook, paused or resumed' })
  @ApiErrors(400, 401, 403, 404, 409)
  async update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    return { webhook: await this.webhooks.setActive(auth.user.id, id, body.active) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook and its delivery history' })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'the deleted webhook' })
  @ApiErrors(401, 403, 404)
  async delete(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { webhook: await this.webhooks.delete(auth.user.id, id) };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "A webhook's latest 50 deliveries, newest first" })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiErrors(401, 403, 404)
  async deliveries(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { deliveries: await this.webhooks.deliveriesOf(auth.user.id, id) };
  }
}
