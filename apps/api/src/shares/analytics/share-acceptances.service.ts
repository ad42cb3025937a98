import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { AppError } from '../../common/app-error.js';
import {
  DEFAULT_ACCEPTANCE_PAGE,
  MAX_ACCEPTANCE_EXPORT,
  MAX_ACCEPTANCE_PAGE,
  type AcceptanceQueryDto,
  type ShareAcceptanceDto,
  type ShareAcceptancePageDto,
} from './share-acceptances.dto.js';
import { ShareAcceptancesRepository } from './share-acceptances.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR = /^a(\d{1,19})$/;
const EXPORT_PAGE = 1_000;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** The CSV's columns, in order: the ShareAcceptance fields. */
const CSV_COLUMNS: Array<keyof ShareAcceptanceDto> = ['id', 'at', 'name', 'email', 'ipPrefix', 'userAgent', 'agreementSha256'];

function encodeCursor(seq: string): string {
  return Buffer.from(`a${seq}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  // Nineteen digits can pass bigint's range, which the database would refuse with an error.
  if (!match || BigInt(match[1]!) > MAX_BIGINT) throw AppError.validation('cursor 无效', 'cursor');
  return match[1]!;
}

/** The acceptances of a share's agreement, for its owner: pages newest first, and the CSV export. */
@Injectable()
export class ShareAcceptancesService {
  constructor(private readonly repository: ShareAcceptancesRepository) {}

  async page(userId: string, shareId: string, query: AcceptanceQueryDto): Promise<ShareAcceptancePageDto> {
    const limit = query.limit === undefined ? DEFAULT_ACCEPTANCE_PAGE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ACCEPTANCE_PAGE) {
      throw AppError.validation(`limit 必须是 1 到 ${MAX_ACCEPTANCE_PAGE} 之间的整数`, 'limit');
    }
    const after = decodeCursor(query.cursor);
    await this.assertOwned(userId, shareId);
    // One row more than asked tells whether another page follows.
    const rows = await this.repository.page(shareId, after, limit + 1);
    const shown = rows.slice(0, limit);
    const last = rows.length > limit ? shown[shown.length - 1]! : null;
    return { acceptances: shown.map((row) => row.acceptance), nextCursor: last ? encodeCursor(last.seq) : null };
  }

  /** Every acceptance (the newest MAX_ACCEPTANCE_EXPORT), as CSV with a header line. */
  async csv(userId: string, shareId: string): Promise<Readable> {
    await this.assertOwned(userId, shareId);
    const repository = this.repository;
    async function* acceptances(): AsyncGenerator<Record<string, unknown>> {
      let after: string | null = null;
      let sent = 0;
      while (sent < MAX_ACCEPTANCE_EXPORT) {
        const rows = await repository.page(shareId, after, Math.min(EXPORT_PAGE, MAX_ACCEPTANCE_EXPORT - sent));
        for (const row of rows) yield { ...row.acceptance };
        sent += rows.length;
        if (rows.length < EXPORT_PAGE) return;
        after = rows[rows.length - 1]!.seq;
      }
    }
    // Cells that a spreadsheet would read as a formula (=, +, -, @, tab, CR first) are quoted with a leading '.
    return Readable.from(acceptances()).pipe(stringify({ header: true, columns: CSV_COLUMNS, escape_formulas: true }));
  }

  private async assertOwned(userId: string, shareId: string): Promise<void> {
    if (!UUID.test(shareId) || !(await this.repository.owns(userId, shareId))) throw AppError.notFound('分享不存在');
  }
}
