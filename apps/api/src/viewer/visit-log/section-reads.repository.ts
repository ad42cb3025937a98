import { Injectable } from '@nestjs/common';
import { MAX_FOLDER_DEPTH } from '../../files/folders/folders.repository.js';
import { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../../common/sql.js';
import type { FileKind } from '../../shares/share-row.js';

/** One section's reported time, with its heading, ready to store. */
export interface SectionRead {
  section: number;
  heading: string;
  ms: number;
}

/** The version of one document a share serves now. */
export interface ServedVersion {
  fileId: string;
  fileName: string;
  kind: FileKind;
  versionId: string | null;
}

/** Slack for clocks and the page's last tick, as the visit's own duration allows (visit-log.repository.ts). */
export const SECTION_SLACK_MS = 1000;
/**
 * How many sections the page counts as on screen at once at most (viewer-client.ts): the sum of
 * a beacon's section times can reach the visit's elapsed time this many times over, not more.
 */
export const MAX_SECTIONS_ON_SCREEN = 4;

/**
 * A beacon's section times, in one statement, on a measured visit of that share only. What is
 * refused, against the time elapsed since the visit log's `at` (when the visit was admitted):
 * - a section whose ms exceeds the elapsed time + SECTION_SLACK_MS (dropped alone);
 * - all of the beacon's sections when the sum of the remaining ones exceeds
 *   (elapsed time + SECTION_SLACK_MS) × MAX_SECTIONS_ON_SCREEN (no page could have measured them).
 * What is stored only rises (GREATEST): beacons carry running totals and may arrive out of order.
 */
const RECORD_SQL = `
  WITH visit AS (
    SELECT (extract(epoch FROM now() - at) * 1000)::bigint + $7::bigint AS allowed
      FROM share_visit_log WHERE id = $1::uuid AND share_id = $2::uuid AND measured
  ), possible AS (
    SELECT r.section, r.heading, r.ms
      FROM unnest($4::int[], $5::text[], $6::int[]) AS r(section, heading, ms), visit
     WHERE r.ms <= visit.allowed
  ), accepted AS (
    SELECT * FROM possible
     WHERE (SELECT sum(ms) FROM possible) <= (SELECT allowed FROM visit) * $8::bigint
  )
  INSERT INTO share_section_reads AS r (visit_id, file_id, section, share_id, heading, ms)
  SELECT $1::uuid, $3::uuid, section, $2::uuid, heading, ms FROM accepted
  ON CONFLICT (visit_id, file_id, section) DO UPDATE
    SET ms = greatest(r.ms, excluded.ms), heading = excluded.heading
  RETURNING r.section`;

/**
 * The version a share serves of one of its documents: a single share's own (pinned, else its
 * newest CLEAN one, as the gate row says), a collection's document's newest CLEAN version unless
 * its current one is INFECTED, as the collection serves it (collection.repository.ts; the file
 * must be the share owner's, not in the trash, and in the folder's tree now: a file moved out
 * takes no more reads).
 */
const SERVED_SQL = `
  WITH RECURSIVE tree AS (
    SELECT fo.id, 1 AS depth FROM shares s JOIN folders fo ON fo.id = s.folder_id AND fo.deleted_at IS NULL
     WHERE s.id = $1::uuid
    UNION ALL
    SELECT c.id, t.depth + 1 FROM folders c JOIN tree t ON c.parent_id = t.id
     WHERE c.deleted_at IS NULL AND t.depth < ${MAX_FOLDER_DEPTH}
  )
  SELECT g.file_id, g.name, g.kind, g.version_id
    FROM share_gate g WHERE g.id = $1::uuid AND g.file_id = coalesce($2::uuid, g.file_id)
  UNION ALL
  SELECT f.id, f.name, f.kind,
         (SELECT v.id FROM file_versions v
           WHERE v.file_id = f.id AND v.scan_status = 'CLEAN' AND cur.scan_status IS DISTINCT FROM 'INFECTED'
           ORDER BY v.version_no DESC LIMIT 1)
    FROM shares s JOIN files f ON f.id = $2::uuid AND f.user_id = s.user_id AND f.deleted_at IS NULL
    LEFT JOIN file_versions cur ON cur.id = f.current_version_id
   WHERE s.id = $1::uuid AND s.folder_id IS NOT NULL AND f.folder_id IN (SELECT id FROM tree)`;

/** share_section_reads: how long each section of a document was on screen during a visit. */
@Injectable()
export class SectionReadsRepository {
  constructor(private readonly db: DataSource) {}

  /** The served version of `fileId` (null: the single share's own file) through share `shareId`, or null. */
  async served(shareId: string, fileId: string | null): Promise<ServedVersion | null> {
    const rows: Array<{ file_id: string; name: string; kind: FileKind; version_id: string | null }> = await this.db.query(
      SERVED_SQL,
      [shareId, fileId],
    );
    const row = rows[0];
    return row ? { fileId: row.file_id, fileName: row.name, kind: row.kind, versionId: row.version_id } : null;
  }

  /** Stores what is possible of `reads` (see RECORD_SQL); answers how many sections were written. */
  async record(visitId: string, shareId: string, fileId: string, reads: readonly SectionRead[]): Promise<number> {
    if (reads.length === 0) return 0;
    const result: unknown = await this.db.query(RECORD_SQL, [
      visitId,
      shareId,
      fileId,
      reads.map((read) => read.section),
      reads.map((read) => read.heading),
      reads.map((read) => read.ms),
      SECTION_SLACK_MS,
      MAX_SECTIONS_ON_SCREEN,
    ]);
    return returnedRows(result).length;
  }

  /** Deletes section reads older than the retention period, in slices like the visit log's sweep. */
  async deleteOlderThan(days: number, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM share_section_reads WHERE ctid IN (
             SELECT ctid FROM share_section_reads WHERE at < now() - make_interval(days => $1::int) LIMIT $2)`,
          [days, batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
