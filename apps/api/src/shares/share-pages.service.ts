import { Injectable } from '@nestjs/common';
import { isCursorUuid, pageOf, pageRequestOf, type PageRequest } from '../common/page-cursor.js';
import {
  SHARES_CURSOR,
  ShareListRepository,
  type ShareListFilter,
  type ShareOrderKey,
  type ShareTotals,
} from './share-list.repository.js';
import { toShare } from './share-row.js';
import type { ConsoleShareListDto, ConsoleSharesQueryDto, ShareDto } from './share.dto.js';
import { SharesService } from './shares.service.js';

/** An id filter that is no uuid names nothing: the list is empty. */
function namesNothing(filter: ShareListFilter): boolean {
  return (
    (filter.fileId !== undefined && !isCursorUuid(filter.fileId)) ||
    (filter.folderId !== undefined && !isCursorUuid(filter.folderId))
  );
}

export interface SharePage {
  shares: ShareDto[];
  nextCursor: string | null;
}

/** Shares one page at a time, newest first, and the totals a list shows above its pages. */
@Injectable()
export class SharePagesService {
  constructor(
    private readonly lists: ShareListRepository,
    private readonly shares: SharesService,
  ) {}

  /**
   * `GET shares` for both doors, in one place. The console's answer carries more than the token
   * API's: it filters by `status` and `q` (its list view's filter bar and search box) and, for a
   * page, adds `total` (its pager shows the count over all pages). The token API's contract has
   * neither, so its query never holds `status` or `q` and its answer never `total` (`forConsole` false).
   */
  async list(userId: string, query: ConsoleSharesQueryDto, forConsole: boolean): Promise<ConsoleShareListDto> {
    const scope = { fileId: query.fileId, folderId: query.folderId };
    const filter: ShareListFilter = forConsole ? { ...scope, status: query.status, q: query.q?.trim() || undefined } : scope;
    const page = pageRequestOf(SHARES_CURSOR, query);
    if (page) {
      if (!forConsole) return this.page(userId, filter, page);
      const [found, total] = await Promise.all([this.page(userId, filter, page), this.count(userId, filter)]);
      return { ...found, total };
    }
    if (filter.status === undefined && filter.q === undefined) return { shares: await this.shares.list(userId, scope) };
    return { shares: await this.all(userId, filter) };
  }

  async page(userId: string, filter: ShareListFilter, page: PageRequest<ShareOrderKey>): Promise<SharePage> {
    // A file or folder id that is no uuid names nothing: an empty list, as the unpaged answer gives.
    if (namesNothing(filter)) return { shares: [], nextCursor: null };
    const fetched = await this.lists.page(userId, filter, page);
    const { rows, nextCursor } = pageOf(fetched, page.limit, SHARES_CURSOR, (row) => ({
      createdAt: row.cursor_time,
      id: row.id,
    }));
    return { shares: rows.map(toShare), nextCursor };
  }

  /** Every share the filter lets through, newest first, in one answer. */
  async all(userId: string, filter: ShareListFilter): Promise<ShareDto[]> {
    if (namesNothing(filter)) return [];
    return (await this.lists.page(userId, filter, null)).map(toShare);
  }

  async count(userId: string, filter: ShareListFilter): Promise<number> {
    if (namesNothing(filter)) return 0;
    return this.lists.count(userId, filter);
  }

  totals(userId: string): Promise<ShareTotals> {
    return this.lists.totals(userId);
  }
}
