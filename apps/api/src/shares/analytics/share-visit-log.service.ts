import { Readable } from 'node:stream';
import { Injectable, StreamableFile } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { AppError } from '../../common/app-error.js';
import {
  DEFAULT_VISIT_PAGE,
  MAX_VISIT_EXPORT,
  MAX_VISIT_PAGE,
  type ShareVisitDto,
  type ShareVisitPageDto,
  type VisitLogQueryDto,
} from './share-visit-log.dto.js';
import { ShareVisitLogRepository, type VisitLogFilter } from './share-visit-log.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f-]{36})$/;
const EXPORT_PAGE = 1_000;

/** The CSV's columns, in order: the ShareVisit fields (`documents` as a JSON array in one cell). */
const CSV_COLUMNS: Array<keyof ShareVisitDto> = [
  'id',
  'at',
  'visitorId',
  'ipPrefix',
  'referer',
  'userAgent',
  'browser',
  'os',
  'device',
  'loginEmail',
  'automated',
  'durationMs',
  'scrollDepth',
  'completed',
  'documents',
];

function parseInstant(value: string | undefined, name: string): Date | null {
  if (value === undefined) return null;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) throw AppError.validation(`${name} 必须是 ISO 8601 时间`, name);
  return instant;
}

function encodeCursor(atKey: string, id: string): string {
  return Buffer.from(`${atKey}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): VisitLogFilter['after'] {
  if (cursor === undefined) return null;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw AppError.validation('cursor 无效', 'cursor');
  return { at: match[1]!, id: match[2]! };
}

/** The visit log of a share, for its owner: pages newest first, and the CSV export. */
@Injectable()
export class ShareVisitLogService {
  constructor(private readonly repository: ShareVisitLogRepository) {}

  async page(userId: string, shareId: string, query: VisitLogQueryDto): Promise<ShareVisitPageDto> {
    const limit = query.limit === undefined ? DEFAULT_VISIT_PAGE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_VISIT_PAGE) {
      throw AppError.validation(`limit 必须是 1 到 ${MAX_VISIT_PAGE} 之间的整数`, 'limit');
    }
    const filter = await this.filter(userId, shareId, query);
    // One row more than asked tells whether another page follows.
    const rows = await this.repository.page(filter, limit + 1);
    const visits = rows.slice(0, limit);
    const last = rows.length > limit ? visits[visits.length - 1]! : null;
    return { visits: visits.map((row) => row.visit), nextCursor: last ? encodeCursor(last.atKey, last.visit.id) : null };
  }

  /** Every visit the filter selects (the newest MAX_VISIT_EXPORT), as CSV with a header line. */
  /** The visit log as a CSV download: the token API's `visits.csv` and the console's `visit-log.csv`. */
  async csvFile(userId: string, shareId: string, query: VisitLogQueryDto): Promise<StreamableFile> {
    const csv = await this.csv(userId, shareId, query);
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="visits-${shareId}.csv"`,
    });
  }

  async csv(userId: string, shareId: string, query: VisitLogQueryDto): Promise<Readable> {
    const filter = await this.filter(userId, shareId, query);
    const repository = this.repository;
    async function* visits(): AsyncGenerator<Record<string, unknown>> {
      let after = filter.after;
      let sent = 0;
      while (sent < MAX_VISIT_EXPORT) {
        const rows = await repository.page({ ...filter, after }, Math.min(EXPORT_PAGE, MAX_VISIT_EXPORT - sent));
        for (const row of rows) yield { ...row.visit, documents: JSON.stringify(row.visit.documents) };
        sent += rows.length;
        if (rows.length < EXPORT_PAGE) return;
        const last = rows[rows.length - 1]!;
        after = { at: last.atKey, id: last.visit.id };
      }
    }
    // Cells that a spreadsheet would read as a formula (=, +, -, @, tab, CR first) are quoted with a leading '.
    return Readable.from(visits()).pipe(
      stringify({ header: true, columns: CSV_COLUMNS, escape_formulas: true, cast: { boolean: (value) => String(value) } }),
    );
  }

  private async filter(userId: string, shareId: string, query: VisitLogQueryDto): Promise<VisitLogFilter> {
    const from = parseInstant(query.from, 'from');
    const to = parseInstant(query.to, 'to');
    const after = decodeCursor(query.cursor);
    if (!UUID.test(shareId) || !(await this.repository.owns(userId, shareId))) throw AppError.notFound('分享不存在');
    return {
      shareId,
      from,
      to,
      automated: query.automated === undefined ? null : query.automated === 'true',
      after,
    };
  }
}
