import { Injectable } from '@nestjs/common';
import { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** A login-only link (also every allowlisted or per-account capped one) wants a signed-in account. */
@Injectable()
export class LoginPolicy implements GatePolicy {
  constructor(private readonly identity: ViewerIdentity) {}

  async check(visit: Visit): Promise<GateStep> {
    if (!visit.share.requireLogin) return PASS;
    visit.user = await this.identity.user(visit.request);
    return visit.user ? PASS : { kind: 'sign-in' };
  }
}
