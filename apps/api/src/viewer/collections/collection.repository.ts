import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Columns, Row } from '../../database/rows.js';
import { MAX_FOLDER_DEPTH } from '../../files/folders/folders.repository.js';
import type { FileKind } from '../../shares/share-row.js';
import type { ScanStatus } from '../share-view/share-view.repository.js';

/** A document a collection page lists. */
export interface CollectionDocument {
  id: string;
  name: string;
  kind: FileKind;
  sizeBytes: number;
  updatedAt: Date;
  /** The names of the sub-folders from the shared folder down to the document's; empty at the top. */
  path: string[];
}

/** A document of a collection as its own page serves it. */
export interface CollectionFile {
  id: string;
  name: string;
  kind: FileKind;
  /** The version to serve: the newest CLEAN one, unless the current one is INFECTED (then null). */
  versionId: string | null;
  currentStatus: ScanStatus | null;
}

/**
 * The live folders of a collection: the shared folder ($1, of owner $2) and its live sub-folders,
 * each with its path of names below the shared one. A trashed folder hides what is below it.
 */
const TREE_CTE = `
  WITH RECURSIVE tree AS (
    SELECT id, ARRAY[]::text[] AS path, 1 AS depth FROM folders WHERE id = $1::uuid AND user_id = $2::uuid AND deleted_at IS NULL
    UNION ALL
    SELECT c.id, t.path || c.name, t.depth + 1 FROM folders c JOIN tree t ON c.parent_id = t.id
    WHERE c.user_id = $2::uuid AND c.deleted_at IS NULL AND t.depth < ${MAX_FOLDER_DEPTH}
  )`;

/** A document request's upload that its owner has not accepted yet is in no collection. */
const NOT_AWAITING_REVIEW = `NOT EXISTS (SELECT 1 FROM request_uploads ru WHERE ru.file_id = f.id AND ru.review = 'PENDING')`;

/**
 * A collection's documents, read as they are now: a file added to the folder later appears, one
 * moved out or trashed is gone at once. Only documents whose current version is CLEAN are listed,
 * and none that awaits its owner's review (an upload through a document request).
 */
@Injectable()
export class CollectionRepository {
  constructor(private readonly db: DataSource) {}

  /** Top-level documents first, then each sub-folder's, by path; by name within a folder. */
  async documents(folderId: string, ownerId: string): Promise<CollectionDocument[]> {
    const rows: Array<
      Columns<'files', 'id' | 'name' | 'kind' | 'updated_at', { kind: FileKind }> &
        Columns<'file_versions', 'size_bytes'> & {
          /** Computed: the folder names from the shared folder down (TREE_CTE). */
          path: string[];
        }
    > = await this.db.query(
      `${TREE_CTE}
         SELECT f.id, f.name, f.kind, v.size_bytes, f.updated_at, t.path
           FROM tree t
           JOIN files f ON f.folder_id = t.id AND f.user_id = $2::uuid AND f.deleted_at IS NULL
           JOIN file_versions v ON v.id = f.current_version_id AND v.scan_status = 'CLEAN'
          WHERE ${NOT_AWAITING_REVIEW}
          ORDER BY cardinality(t.path) > 0, t.path, lower(f.name), f.id`,
      [folderId, ownerId],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      kind: row.kind,
      sizeBytes: Number(row.size_bytes),
      updatedAt: new Date(row.updated_at),
      path: row.path,
    }));
  }

  /** One live document of the collection, or null when the file is not (or no longer) in it. */
  async document(folderId: string, ownerId: string, fileId: string): Promise<CollectionFile | null> {
    const rows: Array<
      Columns<'files', 'id' | 'name' | 'kind', { kind: FileKind }> & {
        /** clean.id AS version_id: the newest CLEAN version (left join). */
        version_id: Row<'file_versions'>['id'] | null;
        /** cur.scan_status AS current_status (left join). */
        current_status: ScanStatus | null;
      }
    > = await this.db.query(
      `${TREE_CTE}
       SELECT f.id, f.name, f.kind, clean.id AS version_id, cur.scan_status AS current_status
         FROM files f
         JOIN tree t ON t.id = f.folder_id
         LEFT JOIN file_versions cur ON cur.id = f.current_version_id
         LEFT JOIN LATERAL (
           SELECT v.id FROM file_versions v WHERE v.file_id = f.id AND v.scan_status = 'CLEAN'
           ORDER BY v.version_no DESC LIMIT 1
         ) clean ON cur.scan_status IS DISTINCT FROM 'INFECTED'
        WHERE f.id = $3::uuid AND f.user_id = $2::uuid AND f.deleted_at IS NULL AND ${NOT_AWAITING_REVIEW}`,
      [folderId, ownerId, fileId],
    );
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, name: row.name, kind: row.kind, versionId: row.version_id, currentStatus: row.current_status };
  }
}
