import { Injectable } from '@nestjs/common';
import { SharesRepository } from '../shares.repository.js';
import { SharesService } from '../shares.service.js';
import { AppError } from '../../common/app-error.js';
import { DEFAULT_VISIT_HOURS, HOURS_MESSAGE, MAX_VISIT_HOURS, type ShareVisitsDto } from './share-visits.dto.js';

/** Reads the hourly visit buckets the viewer writes while admitting a visit. */
@Injectable()
export class ShareVisitsService {
  constructor(
    private readonly repository: SharesRepository,
    private readonly shares: SharesService,
  ) {}

  /** `hoursParam` is the query's text (digits, already checked by the DTO); a week when absent. */
  async hourly(userId: string, shareId: string, hoursParam: string | undefined): Promise<ShareVisitsDto> {
    const hours = hoursParam === undefined ? DEFAULT_VISIT_HOURS : Number(hoursParam);
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_VISIT_HOURS) throw AppError.validation(HOURS_MESSAGE, 'hours');
    // Ownership and existence come from the shares service: 404 for a foreign or unknown id.
    const share = await this.shares.get(userId, shareId);
    const rows = await this.repository.hourlyVisits(share.id, hours);
    return {
      shareId: share.id,
      visitCount: share.visitCount,
      uniqueVisitCount: share.uniqueVisitCount,
      buckets: rows.map((row) => ({ hour: new Date(row.hour).toISOString(), visits: Number(row.visits) })),
    };
  }
}
