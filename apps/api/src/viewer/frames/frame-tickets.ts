import { randomBytes } from 'node:crypto';
import type { Signer } from '../visitor/signer.js';

/**
 * How long the frame URL of an admitted HTML view can be fetched. The viewer page's iframe asks
 * for it as soon as the page is parsed; the ticket works once (see `frame_tickets`).
 */
export const FRAME_TICKET_SECONDS = 30;

/** Fastify's `maxParamLength` (create-app.ts): a ticket must fit into one route parameter. */
export const FRAME_TICKET_MAX_LENGTH = 500;

/**
 * Who the page's watermark named, so the frame shows the same text: the signed-in account (its
 * e-mail is read when the frame is fetched), the masked address and the minute of the view (the
 * name on the visitor's acceptance is read when the frame is fetched, too).
 */
export interface FrameWatermarkViewer {
  userId: string | null;
  address: string | null;
  minute: number;
}

/** A frame ticket's content: the admitted view it belongs to. */
export interface FrameTicket {
  /** Random id; recorded in `frame_tickets` when used, so the ticket works once across replicas. */
  id: string;
  shareId: string;
  versionId: string;
  /** Digest of the visitor key the page was served to (the signed `sd_visitor` cookie). */
  visitor: string;
  copyProtection: boolean;
  /** Null: no watermark when the page was served. */
  watermark: { viewer: FrameWatermarkViewer | null } | null;
  /** Unix seconds. */
  expiresAt: number;
}

type TicketPayload = {
  i?: unknown;
  s?: unknown;
  v?: unknown;
  k?: unknown;
  c?: unknown;
  w?: unknown;
  u?: unknown;
  a?: unknown;
  m?: unknown;
  x?: unknown;
};

const str = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Seals and opens frame tickets: short-lived, signed, bound to one share, version and visitor.
 * The keys are one letter each because the ticket travels in the URL path.
 */
export class FrameTickets {
  constructor(private readonly signer: Signer) {}

  /** What a ticket stores of a visitor key: a digest, so the URL does not carry the key itself. */
  visitorDigest(visitorKey: string): string {
    return this.signer.digest(`visitor:${visitorKey}`).slice(0, 16);
  }

  mint(options: {
    shareId: string;
    versionId: string;
    visitorKey: string;
    copyProtection: boolean;
    watermark: { viewer: FrameWatermarkViewer | null } | null;
  }): string {
    const viewer = options.watermark?.viewer ?? null;
    return this.signer.seal(
      {
        i: randomBytes(12).toString('base64url'),
        s: options.shareId,
        v: options.versionId,
        k: this.visitorDigest(options.visitorKey),
        c: options.copyProtection ? 1 : 0,
        ...(options.watermark ? { w: 1 } : {}),
        ...(viewer?.userId ? { u: viewer.userId } : {}),
        ...(viewer?.address ? { a: viewer.address } : {}),
        ...(viewer ? { m: viewer.minute } : {}),
      },
      FRAME_TICKET_SECONDS,
    );
  }

  /** The ticket when authentic, unexpired and well-formed; null otherwise. */
  open(sealed: string): FrameTicket | null {
    if (sealed.length > FRAME_TICKET_MAX_LENGTH) return null;
    const p = this.signer.open<TicketPayload>(sealed);
    if (!p || !str(p.i) || !str(p.s) || !str(p.v) || !str(p.k) || typeof p.x !== 'number') return null;
    const viewer =
      typeof p.m === 'number' ? { userId: str(p.u) ? p.u : null, address: str(p.a) ? p.a : null, minute: p.m } : null;
    return {
      id: p.i,
      shareId: p.s,
      versionId: p.v,
      visitor: p.k,
      copyProtection: p.c === 1,
      watermark: p.w === 1 ? { viewer } : null,
      expiresAt: p.x,
    };
  }
}
