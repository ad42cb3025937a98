import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

// Only one worker sweeps at a time; the others skip that round.
const HOUSEKEEPING_LOCK = 4_202_612;

/** The lock that lets one worker at a time sweep. */
@Injectable()
export class HousekeepingRepository {
  /** Takes the sweep's advisory lock for the rest of the transaction; false when another worker holds it. */
  async tryLockForTransaction(manager: EntityManager): Promise<boolean> {
    const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [HOUSEKEEPING_LOCK])) as [
      { locked: boolean },
    ];
    return locked;
  }
}
