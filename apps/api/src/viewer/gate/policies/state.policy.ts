import { Injectable } from '@nestjs/common';
import { refused } from '../gate-stop.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** Disabled after a report, revoked, its owner disabled, trashed, expired or used up: the document is gone for everyone. */
@Injectable()
export class StatePolicy implements GatePolicy {
  check({ share }: Visit): GateStep {
    // A disabled share is revoked too; the visitor is told the reason that stands for good.
    if (share.disabled) return { kind: 'share-disabled' };
    if (share.revoked) return refused('REVOKED');
    if (share.ownerDisabled) return { kind: 'owner-disabled' };
    if (share.trashed) return { kind: 'trashed' };
    if (share.expired) return refused('EXPIRED');
    if (share.consumed) return refused('CONSUMED');
    return PASS;
  }
}
