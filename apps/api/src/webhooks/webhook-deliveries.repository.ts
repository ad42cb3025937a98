import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns } from '../database/rows.js';
import type { DeliveryOutcome, DeliveryStatus } from './webhook-sender.js';

export const DELIVERY_HISTORY_LIMIT = 50;

/**
 * Marks a claimed delivery whose outcome is not written yet. It never leaves this module:
 * listings hide it, and a claim left behind by a stopped worker becomes `error`.
 */
const IN_FLIGHT = 'in_flight';
/** Far above the 5 s delivery budget: a claim this old belongs to a worker that stopped. */
const ABANDONED_AFTER = '1 minute';
const INTERRUPTED_MESSAGE = '投递过程中断（处理进程停止），结果未知；为避免重复投递，不再重发';

export interface DeliveryView {
  id: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  responseCode: number | null;
  attempts: number;
  deliveredAt: string;
  durationMs: number;
  responseBody: string | null;
}

type DeliveryRow = Columns<
  'webhook_deliveries',
  'id' | 'event_id' | 'event' | 'status' | 'response_code' | 'attempts' | 'delivered_at' | 'duration_ms' | 'response_body',
  // The listings leave out the in-flight claims (IN_FLIGHT).
  { status: DeliveryStatus }
>;

function toView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event,
    status: row.status,
    responseCode: row.response_code,
    attempts: row.attempts,
    deliveredAt: row.delivered_at.toISOString(),
    durationMs: row.duration_ms,
    responseBody: row.response_body,
  };
}

/** The audit log of deliveries: one row per (webhook, event), claimed before the request is sent. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Claims the (webhook, event) pair. Only the caller that inserts the row may send; anyone who
   * finds it already there (a re-run after a crash, a second worker) must not.
   */
  async claim(input: { deliveryId: string; webhookId: string; eventId: string; event: string }): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, status, attempts)
       SELECT $1::uuid, w.id, $3::text, $4::text, '${IN_FLIGHT}', 1 FROM webhooks w WHERE w.id = $2::uuid
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [input.deliveryId, input.webhookId, input.eventId, input.event],
    );
    return rows.length === 1;
  }

  async complete(deliveryId: string, outcome: DeliveryOutcome): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = $2, response_code = $3, duration_ms = $4, response_body = $5 WHERE id = $1`,
      [deliveryId, outcome.status, outcome.responseCode, outcome.durationMs, outcome.responseBody],
    );
  }

  /** A claim found again by a re-run: its worker stopped mid-delivery; record that, never resend. */
  async markInterrupted(webhookId: string, eventId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'error', response_body = $3
       WHERE webhook_id = $1 AND event_id = $2 AND status = '${IN_FLIGHT}'`,
      [webhookId, eventId, INTERRUPTED_MESSAGE],
    );
  }

  /** Keeps the newest 50 finished records; abandoned claims are first turned into `error`. */
  async purge(webhookId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'error', response_body = $2
       WHERE webhook_id = $1 AND status = '${IN_FLIGHT}' AND delivered_at < now() - interval '${ABANDONED_AFTER}'`,
      [webhookId, INTERRUPTED_MESSAGE],
    );
    await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND status <> '${IN_FLIGHT}'
         ORDER BY delivered_at DESC, id DESC OFFSET ${DELIVERY_HISTORY_LIMIT})`,
      [webhookId],
    );
  }

  async latest(webhookId: string): Promise<DeliveryView[]> {
    const rows: DeliveryRow[] = await this.db.query(
      `SELECT id, event_id, event, status, response_code, attempts, delivered_at, duration_ms, response_body
       FROM webhook_deliveries WHERE webhook_id = $1 AND status <> '${IN_FLIGHT}'
       ORDER BY delivered_at DESC, id DESC LIMIT ${DELIVERY_HISTORY_LIMIT}`,
      [webhookId],
    );
    return rows.map(toView);
  }
}
