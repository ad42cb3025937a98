/**
 * The backup archive: gzip-compressed lines of JSON, read and written as a stream so an instance
 * of any size passes through a fixed amount of memory.
 *
 *   line 1          the header: {"format":"sharedown-backup","version":1,…} (BackupHeader)
 *   then per table  a section line ["table", name, [column, …]] followed by one line per row,
 *                   each the row exactly as PostgreSQL's to_jsonb wrote it (never parsed and
 *                   re-serialised here, so numbers and timestamps keep their precision)
 *   last line       the trailer: ["end", {table: rows, …}]; an archive without it was cut short
 *
 * A section line is a JSON array and a row a JSON object, so the first character tells them apart.
 */
export const BACKUP_FORMAT = 'sharedown-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The migrations applied to the backed-up database, oldest first. */
  migrations: string[];
  /**
   * The instance's session secret (SESSION_SECRET, or the one generated in DATA_DIR), or null if
   * it never had one. Two-factor secrets are sealed with a key derived from it, and visitors'
   * cookies are signed with it; a restore needs it to carry both over.
   */
  sessionSecret: string | null;
}

export type SectionLine = ['table', string, string[]];
export type TrailerLine = ['end', Record<string, number>];

/**
 * Tables left out: the migration history (the target applies its own migrations) and state that
 * only matters for minutes — throttle buckets, frame tickets and e-mail codes in flight.
 */
export const TRANSIENT_TABLES = new Set(['migrations', 'rate_buckets', 'frame_tickets', 'email_codes']);

export function isBackupHeader(value: unknown): value is BackupHeader {
  if (typeof value !== 'object' || value === null) return false;
  const header = value as Partial<BackupHeader>;
  return (
    header.format === BACKUP_FORMAT &&
    typeof header.version === 'number' &&
    Array.isArray(header.migrations) &&
    header.migrations.every((name) => typeof name === 'string') &&
    (header.sessionSecret === null || typeof header.sessionSecret === 'string')
  );
}
