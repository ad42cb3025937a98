import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns } from '../database/rows.js';

export type ScanVerdict = 'CLEAN' | 'INFECTED' | 'SCAN_ERROR';

/** SQL for the scan state of file versions: what the worker reads, settles and sweeps. */
@Injectable()
export class ScanRepository {
  constructor(private readonly db: DataSource) {}

  /** A version's text and scan status, or null when it was purged. */
  async findVersion(versionId: string): Promise<{ content: string; scanStatus: string } | null> {
    const rows: Array<Columns<'file_versions', 'content' | 'scan_status'>> = await this.db.query(
      `SELECT content, scan_status FROM file_versions WHERE id = $1`,
      [versionId],
    );
    return rows[0] ? { content: rows[0].content, scanStatus: rows[0].scan_status } : null;
  }

  /**
   * Records a scan's outcome; a version already CLEAN or INFECTED keeps its verdict. Answers the
   * owner of the version's file when this settled it, else null.
   */
  async settle(versionId: string, status: ScanVerdict, result: string | null): Promise<string | null> {
    const [rows]: [Array<Columns<'files', 'user_id'>>, number] = await this.db.query(
      `UPDATE file_versions v SET scan_status = $2, scan_result = $3, scan_attempts = scan_attempts + 1, scanned_at = now()
       FROM files f
       WHERE v.id = $1 AND v.scan_status IN ('PENDING', 'SCAN_ERROR') AND f.id = v.file_id
       RETURNING f.user_id`,
      [versionId, status, result],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Versions whose job was lost (PENDING for over a minute) or gave up (SCAN_ERROR), oldest first. */
  async listUnfinished(limit: number): Promise<string[]> {
    const rows: Array<Columns<'file_versions', 'id'>> = await this.db.query(
      `SELECT id FROM file_versions
       WHERE scan_status = 'SCAN_ERROR' OR (scan_status = 'PENDING' AND created_at < now() - interval '1 minute')
       ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }
}
