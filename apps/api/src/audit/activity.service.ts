import { Injectable } from '@nestjs/common';
import { AuditRepository } from './audit.repository.js';
import { AUDIT_PAGE_DEFAULT, type AuditPageDto, type AuditQueryDto } from './audit.dto.js';

/** An account's own audit trail, newest first, one page at a time (the console and the API answer alike). */
@Injectable()
export class ActivityService {
  constructor(private readonly audit: AuditRepository) {}

  async page(userId: string, query: AuditQueryDto): Promise<AuditPageDto> {
    const limit = query.limit ? Number(query.limit) : AUDIT_PAGE_DEFAULT;
    // One more than asked tells whether another page follows.
    const found = await this.audit.page(userId, limit + 1, query.cursor, query.actor);
    const page = found.slice(0, limit);
    return {
      events: page.map((event) => ({
        id: event.id,
        action: event.action,
        createdAt: event.createdAt.toISOString(),
        actorId: event.actorId,
        actor: event.actorEmail ? { userId: event.actorId ?? event.userId, email: event.actorEmail } : null,
        targetId: event.targetId,
        details: event.details,
        ipPrefix: event.ipPrefix,
      })),
      nextCursor: found.length > limit ? page[page.length - 1]!.id : null,
    };
  }
}
