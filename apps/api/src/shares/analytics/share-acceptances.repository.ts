import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns } from '../../database/rows.js';
import { describeAgent } from '../../viewer/visit-log/visitor-agent.js';
import type { ShareAcceptanceDto } from './share-acceptances.dto.js';

/** PAGE_SQL (seq::text: the bigint as node-postgres returns it). */
type AcceptanceRow = Columns<
  'share_acceptances',
  'id' | 'seq' | 'at' | 'name' | 'email' | 'ip_prefix' | 'user_agent' | 'agreement_sha256'
>;

export interface AcceptanceRecord {
  acceptance: ShareAcceptanceDto;
  /** The order key, for the cursor. */
  seq: string;
}

/** Newest first by the identity column: a range on share_acceptances_share_seq, the same cost on every page. */
const PAGE_SQL = `
  SELECT id, seq::text AS seq, at, name, email, ip_prefix, user_agent, agreement_sha256
    FROM share_acceptances
   WHERE share_id = $1::uuid AND ($2::bigint IS NULL OR seq < $2::bigint)
   ORDER BY seq DESC
   LIMIT $3`;

@Injectable()
export class ShareAcceptancesRepository {
  constructor(private readonly db: DataSource) {}

  async owns(userId: string, shareId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM shares WHERE id = $1 AND user_id = $2', [shareId, userId]);
    return rows.length > 0;
  }

  async page(shareId: string, afterSeq: string | null, limit: number): Promise<AcceptanceRecord[]> {
    const rows: AcceptanceRow[] = await this.db.query(PAGE_SQL, [shareId, afterSeq, limit]);
    return rows.map((row) => {
      // Read the same way as the visit log reads a visit's agent, so both name a device alike.
      const { browser, os, device } = describeAgent(row.user_agent);
      return {
        seq: row.seq,
        acceptance: {
          id: row.id,
          at: new Date(row.at).toISOString(),
          name: row.name,
          email: row.email,
          ipPrefix: row.ip_prefix,
          userAgent: row.user_agent,
          browser,
          os,
          device,
          agreementSha256: row.agreement_sha256,
        },
      };
    });
  }
}
