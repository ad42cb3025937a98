import { Injectable } from '@nestjs/common';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** The password and reveal forms count only when posted from this service's own pages. */
@Injectable()
export class FormOriginPolicy implements GatePolicy {
  check({ request }: Visit): GateStep {
    return request.method === 'POST' && !request.sameOrigin ? { kind: 'foreign-form' } : PASS;
  }
}
