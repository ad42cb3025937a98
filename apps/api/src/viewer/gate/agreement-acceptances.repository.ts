import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount } from '../../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../../database/named-statements.js';
import type { Columns } from '../../database/rows.js';

/** One acceptance of a share's agreement, as the viewer records it. */
export interface NewAcceptance {
  shareId: string;
  /** The visit log's id of the visitor (ViewerIdentity.visitorId), never the cookie's key. */
  visitorId: string;
  userId: string | null;
  name: string | null;
  /** The signed-in visitor's proven address; null otherwise. */
  email: string | null;
  ipPrefix: string;
  userAgent: string;
  agreementSha256: string;
}

// A hit of the unique index share_acceptances_once: one round trip, only for links with an agreement.
const ACCEPTED_SQL = 'SELECT name FROM share_acceptances WHERE share_id = $1::uuid AND visitor_id = $2 AND agreement_sha256 = $3';

/**
 * The acceptance is recorded only while the share still asks for exactly that text; a parallel
 * second acceptance of the same visitor finds the row and adds nothing.
 */
const ACCEPT_SQL = `
  INSERT INTO share_acceptances (share_id, visitor_id, user_id, name, email, ip_prefix, user_agent, agreement_sha256)
  SELECT s.id, $2, $3::uuid, $4, $5, $6, $7, s.agreement_sha256
    FROM shares s WHERE s.id = $1::uuid AND s.agreement_sha256 = $8
  ON CONFLICT (share_id, visitor_id, agreement_sha256) DO NOTHING`;

/** The viewer's reads and writes of agreements: has this visitor accepted this text, and recording that it has. */
@Injectable()
export class AgreementAcceptancesRepository {
  private readonly pool: NamedStatementPool | null;

  constructor(private readonly db: DataSource) {
    this.pool = namedStatementPool(db);
  }

  /** The visitor's acceptance of this text (with the name given, if any), or null. */
  async accepted(shareId: string, visitorId: string, sha256: string): Promise<{ name: string | null } | null> {
    const rows = await namedQuery<{ name: string | null }>(this.db, this.pool, 'viewer_agreement_accepted', ACCEPTED_SQL, [
      shareId,
      visitorId,
      sha256,
    ]);
    return rows[0] ?? null;
  }

  async accept(acceptance: NewAcceptance): Promise<void> {
    await this.db.query(ACCEPT_SQL, [
      acceptance.shareId,
      acceptance.visitorId,
      acceptance.userId,
      acceptance.name,
      acceptance.email,
      acceptance.ipPrefix,
      acceptance.userAgent,
      acceptance.agreementSha256,
    ]);
  }

  /** The agreement's Markdown while the share still asks for this text; null once it changed. */
  async text(shareId: string, sha256: string): Promise<string | null> {
    // agreement_sha256 matches: the share has an agreement, so a text.
    const rows: Array<Columns<'shares', 'agreement_text', { agreement_text: string }>> = await this.db.query(
      'SELECT agreement_text FROM shares WHERE id = $1 AND agreement_sha256 = $2',
      [shareId, sha256],
    );
    return rows[0]?.agreement_text ?? null;
  }
}

/**
 * Deletes acceptances older than the visit retention (VISIT_RETENTION_DAYS), in slices so a first
 * purge of a backlog holds no long lock. A visitor whose acceptance went is asked again.
 */
export async function deleteAcceptancesOlderThan(db: Pick<DataSource, 'query'>, days: number, batch = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const count = affectedCount(
      await db.query(
        `DELETE FROM share_acceptances WHERE id IN (
           SELECT id FROM share_acceptances WHERE at < now() - make_interval(days => $1::int) LIMIT $2)`,
        [days, batch],
      ),
    );
    total += count;
    if (count < batch) return total;
  }
}
