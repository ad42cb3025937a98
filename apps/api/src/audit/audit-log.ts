import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditRepository, type AuditEntry } from './audit.repository.js';

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
    await this.repository.insert(entry, manager);
  }

  async record(entry: AuditEntry): Promise<void> {
    await this.repository
      .insert(entry)
      .catch((error: unknown) => this.logger.warn(`could not record ${entry.action}: ${String(error)}`));
  }
}
