import { describe, expect, it, vi } from 'vitest';
import { FRAME_TICKET_MAX_LENGTH, FRAME_TICKET_SECONDS, FrameTickets } from './frame-tickets.js';
import { Signer } from '../visitor/signer.js';

const UUID = 'f3b5c0de-1234-4abc-9def-0123456789ab';

describe(FrameTickets.name, () => {
  const sut = new FrameTickets(new Signer('s'.repeat(40), 'frame'));
  const mint = (watermark: Parameters<FrameTickets['mint']>[0]['watermark'] = null) =>
    sut.mint({ shareId: UUID, versionId: UUID, visitorKey: `a${'k'.repeat(26)}`, copyProtection: true, watermark });

  it('opens what it minted: share, version, visitor digest, a fresh id, a short life', () => {
    const now = Date.now();
    const opened = sut.open(mint())!;
    expect(opened).toMatchObject({
      shareId: UUID,
      versionId: UUID,
      visitor: sut.visitorDigest(`a${'k'.repeat(26)}`),
      copyProtection: true,
      watermark: null,
    });
    expect(opened.expiresAt).toBeLessThanOrEqual(Math.floor(now / 1000) + FRAME_TICKET_SECONDS);
    expect(opened.id).not.toBe(sut.open(mint())!.id);
    expect(sut.visitorDigest('a-other')).not.toBe(opened.visitor);
  });

  it('carries who the watermark named', () => {
    expect(sut.open(mint({ viewer: { userId: UUID, address: null, minute: 29_000_000 } }))!.watermark).toEqual({
      viewer: { userId: UUID, address: null, minute: 29_000_000 },
    });
    expect(sut.open(mint({ viewer: { userId: null, address: '127.0.0.0/24', minute: 1 } }))!.watermark).toEqual({
      viewer: { userId: null, address: '127.0.0.0/24', minute: 1 },
    });
    expect(sut.open(mint({ viewer: { userId: UUID, address: '127.0.0.0/24', minute: 2 } }))!.watermark).toEqual({
      viewer: { userId: UUID, address: '127.0.0.0/24', minute: 2 },
    });
    expect(sut.open(mint({ viewer: null }))!.watermark).toEqual({ viewer: null });
  });

  it('stays well inside the route parameter limit in the longest case', () => {
    const longest = [
      mint({ viewer: { userId: UUID, address: null, minute: 99_999_999 } }),
      mint({ viewer: { userId: null, address: 'ffff:ffff:ffff::/48', minute: 99_999_999 } }),
      mint({ viewer: { userId: UUID, address: 'ffff:ffff:ffff::/48', minute: 99_999_999 } }),
    ];
    for (const ticket of longest) expect(ticket.length).toBeLessThan(FRAME_TICKET_MAX_LENGTH - 100);
  });

  it('refuses forged, foreign, expired and oversized tickets', () => {
    const ticket = mint();
    expect(sut.open(ticket.slice(0, -2) + (ticket.endsWith('AA') ? 'BB' : 'AA'))).toBeNull();
    expect(new FrameTickets(new Signer('t'.repeat(40), 'frame')).open(ticket)).toBeNull();
    expect(sut.open('x'.repeat(FRAME_TICKET_MAX_LENGTH + 1))).toBeNull();
    vi.useFakeTimers();
    try {
      vi.setSystemTime(Date.now() + (FRAME_TICKET_SECONDS + 1) * 1000);
      expect(sut.open(ticket)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
