import { Injectable, Logger } from '@nestjs/common';

/** A listener of settled scans: a version found CLEAN or INFECTED. */
export type ScanSettled = (versionId: string, status: 'CLEAN' | 'INFECTED') => Promise<void>;

/**
 * Where the scan worker tells other features that a version's scan settled, without the scan
 * module knowing them (document requests notify their owner once an upload is judged). A
 * listener's failure is logged and never undoes the verdict, which is written already.
 */
@Injectable()
export class ScanSettlements {
  private readonly logger = new Logger('ScanSettlements');
  private readonly listeners: ScanSettled[] = [];

  listen(listener: ScanSettled): void {
    this.listeners.push(listener);
  }

  async settled(versionId: string, status: 'CLEAN' | 'INFECTED'): Promise<void> {
    for (const listener of this.listeners) {
      await listener(versionId, status).catch((error: unknown) =>
        this.logger.warn(
          `a listener of the scan of version ${versionId} failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
}
