/** Event kinds a webhook may subscribe to. `share_expiring_soon` is accepted but reserved: it never fires. */
export const WEBHOOK_EVENTS = ['share_visited', 'share_expiring_soon', 'share_reported', 'request_upload_received'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Events the service actually emits. */
export type EmittedWebhookEvent = Extract<WebhookEventName, 'share_visited' | 'share_reported' | 'request_upload_received'>;

/** One queued delivery: one event for one webhook. */
export interface WebhookDeliveryJob {
  webhookId: string;
  /** Unique per emitted event; shared by every webhook that receives it. */
  eventId: string;
  /** Unique per (event, webhook); sent as X-Service-Delivery and used as the audit record's id. */
  deliveryId: string;
  event: EmittedWebhookEvent;
  /** ISO 8601 UTC with milliseconds, fixed when the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * BullMQ refuses a second job with an id it already holds, so a job id derived from the
 * event and the webhook keeps one event from being queued twice for the same webhook.
 */
export function deliveryJobId(eventId: string, webhookId: string): string {
  return `${eventId}.${webhookId}`;
}
