import { Injectable } from '@nestjs/common';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** Only a CLEAN version is ever shown; the others say why not (and whether to come back). */
@Injectable()
export class ScanStatusPolicy implements GatePolicy {
  check({ share }: Visit): GateStep {
    switch (share.scanStatus) {
      case 'CLEAN':
        return PASS;
      case 'INFECTED':
        return { kind: 'quarantined' };
      case 'PENDING':
        return { kind: 'scanning' };
      default:
        // SCAN_ERROR, retried by the worker; or no version to serve at all.
        return { kind: 'scan-failed' };
    }
  }
}
