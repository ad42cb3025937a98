import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../../common/sql.js';
import type { Engagement } from './visit-log.repository.js';

/**
 * Which documents of a collection an admitted visit opened (share_document_reads, one row per
 * visit and document), and how each was read. Opening a document again in the same visit finds
 * the row and adds nothing; its page's beacons only ever raise time, depth and completion.
 */
@Injectable()
export class DocumentReadsRepository {
  constructor(private readonly db: DataSource) {}

  /** Notes that the visit opened the document (once per visit and document, on any replica). */
  async open(visitId: string, fileId: string, shareId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO share_document_reads (visit_id, file_id, share_id) VALUES ($1, $2, $3)
       ON CONFLICT (visit_id, file_id) DO NOTHING`,
      [visitId, fileId, shareId],
    );
  }

  /**
   * A document page's beacon: raises the read of that document in that visit when there is one
   * (a collection's document); otherwise, the page of a single file, the visit's own row in the
   * visit log, as before (measured visits only). Time cannot exceed the time elapsed since the
   * document (or the visit) was opened. True when a row changed.
   */
  async engage(visitId: string, shareId: string, fileId: string | null, engagement: Engagement): Promise<boolean> {
    const rows = returnedRows<{ n: number }>(
      await this.db.query(
        `WITH document AS (
           UPDATE share_document_reads SET
             duration_ms = greatest(duration_ms, least($3::integer, (extract(epoch FROM now() - at) * 1000)::integer + 1000)),
             scroll_depth = greatest(scroll_depth, $4::real),
             completed = completed OR $5::boolean
           WHERE visit_id = $1::uuid AND share_id = $2::uuid AND file_id = $6::uuid
           RETURNING 1
         ), visit AS (
           UPDATE share_visit_log SET
             duration_ms = greatest(coalesce(duration_ms, 0),
                                    least($3::integer, (extract(epoch FROM now() - at) * 1000)::integer + 1000)),
             scroll_depth = greatest(coalesce(scroll_depth, 0), $4::real),
             completed = completed OR $5::boolean
           WHERE id = $1::uuid AND share_id = $2::uuid AND measured AND NOT EXISTS (SELECT 1 FROM document)
           RETURNING 1
         )
         SELECT ((SELECT count(*) FROM document) + (SELECT count(*) FROM visit))::int AS n`,
        [visitId, shareId, engagement.durationMs, engagement.scrollDepth, engagement.completed, fileId],
      ),
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /** Deletes reads older than the visit retention period, in slices; answers how many went. */
  async deleteOlderThan(days: number, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM share_document_reads WHERE (visit_id, file_id) IN (
             SELECT visit_id, file_id FROM share_document_reads WHERE at < now() - make_interval(days => $1::int) LIMIT $2)`,
          [days, batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
