import { Injectable } from '@nestjs/common';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/**
 * One-time and burn-after-read links open with a click (a POST), so link scanners and chat
 * previews that follow links do not use them up. A form posted to any other link goes back to it.
 */
@Injectable()
export class RevealPolicy implements GatePolicy {
  check({ share, request, passwordTyped }: Visit): GateStep {
    const posted = request.method === 'POST';
    if (!(share.oneTime || share.burnAfterRead)) return posted ? { kind: 'back-to-link' } : PASS;
    return (posted && request.form.action === 'reveal') || passwordTyped ? PASS : { kind: 'reveal' };
  }
}
