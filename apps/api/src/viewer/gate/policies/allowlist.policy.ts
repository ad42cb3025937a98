import { Injectable } from '@nestjs/common';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/**
 * An allowlisted link admits the listed addresses, and only proven ones: anyone can register any
 * address. An unproven visitor is told so before (and whatever) the list says, so that page
 * reveals nothing about the list. Runs after LoginPolicy (every allowlisted link requires sign-in).
 */
@Injectable()
export class AllowlistPolicy implements GatePolicy {
  check({ share, user }: Visit): GateStep {
    if (!share.emailAllowlist || !user) return PASS;
    if (!user.emailVerified) return { kind: 'unverified', user };
    if (!share.emailAllowlist.includes(user.email.toLowerCase())) return { kind: 'not-listed', email: user.email };
    return PASS;
  }
}
