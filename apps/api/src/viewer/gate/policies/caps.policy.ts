import { Injectable } from '@nestjs/common';
import { refused } from '../gate-stop.js';
import { VisitAdmissions } from '../../visit-log/visit-admissions.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/**
 * The last policy counts the visit, atomically in PostgreSQL under the share's row lock: the
 * total, per-visitor and per-account caps, one-time use and the one-session binding are judged
 * there, so parallel visits never admit one too many.
 */
@Injectable()
export class CapsPolicy implements GatePolicy {
  constructor(private readonly admissions: VisitAdmissions) {}

  async check(visit: Visit): Promise<GateStep> {
    if (visit.visitor.cookie) visit.cookies.push(visit.visitor.cookie);
    const admission = await this.admissions.admit(visit.share.id, {
      visitorKey: visit.visitor.key,
      userId: visit.user?.id ?? null,
      browserKey: visit.browserKey,
    });
    if (admission.outcome !== 'ADMITTED') return refused(admission.outcome);
    visit.admission = admission;
    return PASS;
  }
}
