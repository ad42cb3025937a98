import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actingMember } from './acting-member.js';
import { AuditRepository, type AuditEntry } from './audit.repository.js';

/** An entry made while a member acts in a shared workspace names that member, unless it names its actor itself. */
function withActor(entry: AuditEntry): AuditEntry {
  if (entry.actorId !== undefined && entry.actorId !== null) return entry;
  const member = actingMember.getStore();
  return member && member !== entry.userId ? { ...entry, actorId: member } : entry;
}

/**
 * Records security-relevant actions. Given the transaction of the action, the event commits or
 * rolls back with it; without one (a refused sign-in), a failure to record is logged and does not
 * turn the user's answer into an error.
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger('Audit');

  constructor(private readonly repository: AuditRepository) {}

  async within(manager: EntityManager, entry: AuditEntry): Promise<void> {
    await this.repository.insert(withActor(entry), manager);
  }

  async record(entry: AuditEntry): Promise<void> {
    await this.repository
      .insert(withActor(entry))
      .catch((error: unknown) => this.logger.warn(`could not record ${entry.action}: ${String(error)}`));
  }
}
