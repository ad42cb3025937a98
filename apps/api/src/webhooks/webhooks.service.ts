import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LIMITS } from '@sharedown/contract/limits';
import { AppError, ErrorCode } from '../common/app-error.js';
import { newestFirstCursor, pageOf, type NewestFirstKey, type PageRequest } from '../common/page-cursor.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { withTimeout } from '../common/with-timeout.js';
import { WebhookDeliveriesRepository, type DeliveryView } from './webhook-deliveries.repository.js';
import { WEBHOOK_EVENTS, type WebhookEventName } from './webhook-event.js';
import { WebhookSubscriptionCache } from './webhook-subscription-cache.js';
import { WebhookTargetError, bareHost, parseWebhookUrl, resolvePublicAddresses } from './webhook-target.js';
import { WebhooksRepository, type WebhookView } from './webhooks.repository.js';

export const MAX_ACTIVE_WEBHOOKS = LIMITS.webhooksActive;
export const WEBHOOKS_CURSOR = newestFirstCursor('webhooks');
const CREATION_DNS_TIMEOUT_MS = 3_000;

/** `whsec_` and 32 random bytes: 256 bits. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function assertBelowActiveLimit(activeCount: number): void {
  if (activeCount >= MAX_ACTIVE_WEBHOOKS) {
    throw new AppError(ErrorCode.CONFLICT, `每个用户最多 ${MAX_ACTIVE_WEBHOOKS} 个启用的 webhook，请先删除或暂停一个`);
  }
}

/** Console management of a user's webhooks. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly subscriptions: WebhookSubscriptionCache,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  list(userId: string): Promise<WebhookView[]> {
    return this.webhooks.list(userId);
  }

  /** One page, newest first, with the count `q` lets through and the active count the limit applies to. */
  async page(
    userId: string,
    q: string | undefined,
    page: PageRequest<NewestFirstKey>,
  ): Promise<{ webhooks: WebhookView[]; nextCursor: string | null; total: number; activeCount: number }> {
    const [fetched, counts] = await Promise.all([this.webhooks.page(userId, q, page), this.webhooks.counts(userId, q)]);
    const found = pageOf(fetched, page.limit, WEBHOOKS_CURSOR, (row) => ({ createdAt: row.cursorTime, id: row.id }));
    return { webhooks: found.rows.map(({ cursorTime: _cursorTime, ...view }) => view), nextCursor: found.nextCursor, ...counts };
  }

  async create(userId: string, input: { url: string; events: string[] }): Promise<{ webhook: WebhookView; secret: string }> {
    const events = this.validEvents(input.events);
    await this.assertAllowedTarget(input.url);
    const secret = newSecret();
    const webhook = await this.webhooks.createActive(userId, { url: input.url, events, secret }, assertBelowActiveLimit);
    await this.subscriptions.invalidate(userId);
    return { webhook, secret };
  }

  async setActive(userId: string, id: string, active: boolean): Promise<WebhookView> {
    const webhook = await this.webhooks.setActive(userId, id, active, assertBelowActiveLimit);
    if (!webhook) throw AppError.notFound('webhook 不存在');
    await this.subscriptions.invalidate(userId);
    return webhook;
  }

  async delete(userId: string, id: string): Promise<WebhookView> {
    const webhook = await this.webhooks.delete(userId, id);
    if (!webhook) throw AppError.notFound('webhook 不存在');
    await this.subscriptions.invalidate(userId);
    return webhook;
  }

  async deliveriesOf(userId: string, id: string): Promise<DeliveryView[]> {
    const webhook = await this.webhooks.findOwned(userId, id);
    if (!webhook) throw AppError.notFound('webhook 不存在');
    return this.deliveries.latest(webhook.id);
  }

  private validEvents(events: string[]): WebhookEventName[] {
    const known = new Set<string>(WEBHOOK_EVENTS);
    const unknown = events.find((event) => !known.has(event));
    if (unknown !== undefined)
      throw AppError.validation(`events 含未知事件：${unknown}（可选：${WEBHOOK_EVENTS.join('、')}）`, 'events');
    if (events.length === 0) throw AppError.validation('events 至少包含一个事件', 'events');
    return WEBHOOK_EVENTS.filter((event) => events.includes(event));
  }

  /** Form always; the address only when private targets are not allowed. Delivery checks again. */
  private async assertAllowedTarget(raw: string): Promise<void> {
    try {
      const url = parseWebhookUrl(raw);
      if (this.runtime.env.WEBHOOK_ALLOW_PRIVATE_TARGETS) return;
      const host = bareHost(url);
      await withTimeout(
        resolvePublicAddresses(host),
        CREATION_DNS_TIMEOUT_MS,
        () => new WebhookTargetError(`解析 url 的主机名 ${host} 超时`),
      );
    } catch (error) {
      if (error instanceof WebhookTargetError) throw AppError.validation(error.message, 'url');
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
        throw AppError.validation('url 的主机名无法解析', 'url');
      }
      throw error;
    }
  }
}
