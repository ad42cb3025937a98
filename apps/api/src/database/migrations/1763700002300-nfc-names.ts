import { Logger } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const ROOT = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** A live name this migration left as it was, because its NFC form is another live row's name beside it. */
export interface KeptName {
  kind: 'file' | 'folder';
  id: string;
  userId: string;
  /** The folder holding it (a file) or its parent (a folder); null at the top level. */
  placeId: string | null;
  name: string;
  /** The row that holds (or now took) the NFC name. */
  holderId: string;
}

/**
 * The NFC rewrite of one table's names. The unique index `<table>_live_name_key` is
 * (user_id, coalesce(<place>, zero uuid), name) over live rows, case-sensitive; trashed rows are
 * not in it. So:
 * - trashed names are all normalised (a restore gives a free name, see TrashService);
 * - live names not in NFC are grouped with every live name beside them that normalises alike;
 *   in each group the row already in NFC keeps its name, else the oldest (created_at, id)
 *   takes the NFC name; every other row of the group keeps its name as it is, and is returned
 *   (with the row holding the NFC name) to be logged.
 */
function rewrite(table: 'files' | 'folders', place: 'folder_id' | 'parent_id'): { update: string; kept: string } {
  const groups = `
    odd AS (
      SELECT DISTINCT user_id, coalesce(${place}, ${ROOT}) AS place, normalize(name, NFC) AS nfc
        FROM ${table} WHERE deleted_at IS NULL AND name IS NOT NFC NORMALIZED
    ), ranked AS (
      SELECT t.id, t.user_id, t.${place} AS place_id, t.name, odd.nfc,
             row_number() OVER w AS rank, first_value(t.id) OVER w AS holder_id
        FROM ${table} t
        JOIN odd ON odd.user_id = t.user_id AND odd.place = coalesce(t.${place}, ${ROOT})
       WHERE t.deleted_at IS NULL AND normalize(t.name, NFC) = odd.nfc
      WINDOW w AS (PARTITION BY t.user_id, odd.place, odd.nfc ORDER BY t.name = odd.nfc DESC, t.created_at, t.id
                   ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    )`;
  return {
    update: `
      WITH ${groups}, trashed AS (
        UPDATE ${table} SET name = normalize(name, NFC) WHERE deleted_at IS NOT NULL AND name IS NOT NFC NORMALIZED RETURNING id
      ), live AS (
        UPDATE ${table} t SET name = ranked.nfc FROM ranked WHERE t.id = ranked.id AND ranked.rank = 1 AND t.name <> ranked.nfc RETURNING t.id
      )
      SELECT (SELECT count(*) FROM trashed)::int + (SELECT count(*) FROM live)::int AS normalised`,
    kept: `
      WITH ${groups}
      SELECT id, user_id AS "userId", place_id AS "placeId", name, holder_id AS "holderId"
        FROM ranked WHERE rank > 1 ORDER BY user_id, place_id NULLS FIRST, nfc, rank`,
  };
}

/** A name with every character outside printable ASCII written as \uXXXX, so that a log shows what differs. */
function visible(name: string): string {
  return JSON.stringify(name).replace(/[^\x20-\x7e]/gu, (character) => {
    const code = character.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

export function describeKept(kept: KeptName): string {
  const where = kept.kind === 'file' ? 'folder' : 'parent folder';
  return (
    `NFC names: kept ${kept.kind} ${kept.id} named ${visible(kept.name)} un-normalised: its NFC form is the name of ` +
    `${kept.kind} ${kept.holderId} beside it (user ${kept.userId}, ${where} ${kept.placeId ?? 'top level'})`
  );
}

/**
 * File and folder names in Unicode NFC, as the service now writes them (file-names.ts nfcName):
 * `café.md` with a precomposed é and with e + U+0301 are one name. Where two live names beside
 * each other would become the same, both rows are kept as they are but one: the row that is
 * already NFC (else the oldest) holds the NFC name, and each other one keeps its name and is
 * listed in the log (a warning per row), for its owner to rename. Running it again changes
 * nothing more and lists the same rows. `down` changes nothing: the original spellings are gone.
 */
export class NfcNames1763700002300 implements MigrationInterface {
  name = 'NfcNames1763700002300';

  constructor(private readonly log: (line: string) => void = (line) => new Logger('Database').warn(line)) {}

  async up(queryRunner: QueryRunner): Promise<void> {
    let normalised = 0;
    const kept: KeptName[] = [];
    for (const [kind, table, place] of [
      ['folder', 'folders', 'parent_id'],
      ['file', 'files', 'folder_id'],
    ] as const) {
      const statements = rewrite(table, place);
      const rows: Array<Omit<KeptName, 'kind'>> = await queryRunner.query(statements.kept);
      kept.push(...rows.map((row) => ({ kind, ...row })));
      const [{ normalised: count }]: Array<{ normalised: number }> = await queryRunner.query(statements.update);
      normalised += count;
    }
    for (const row of kept) this.log(describeKept(row));
    if (normalised > 0 || kept.length > 0) {
      this.log(`NFC names: ${normalised} names normalised, ${kept.length} kept un-normalised because of a collision`);
    }
  }

  async down(): Promise<void> {
    // The spellings before normalisation are not kept; NFC names are valid names either way.
  }
}
