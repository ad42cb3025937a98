import { Injectable } from '@nestjs/common';
import { verifyPassword } from '../../../auth/accounts/password-hasher.js';
import { throttleKeyOf } from '../../../common/client-address.js';
import { RateLimiter } from '../../../rate-limit/rate-limiter.js';
import { ShareViewRepository } from '../../share-view/share-view.repository.js';
import { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

// Password attempts per share and client.
export const PASSWORD_ATTEMPTS = 10;
const PASSWORD_WINDOW_SECONDS = 15 * 60;
const MAX_PASSWORD_LENGTH = 64;

/**
 * A password link asks for its password once per browser and password (a signed twelve-hour access
 * cookie naming the password version it proved: a new password asks again).
 * Attempts are throttled per share and client; a wrong one never uses up a visit.
 */
@Injectable()
export class PasswordPolicy implements GatePolicy {
  constructor(
    private readonly identity: ViewerIdentity,
    private readonly limiter: RateLimiter,
    private readonly repository: ShareViewRepository,
  ) {}

  async check(visit: Visit): Promise<GateStep> {
    const { share, request } = visit;
    if (!share.hasPassword || this.identity.hasAccess(request, share)) return PASS;
    if (request.method !== 'POST' || request.form.action !== 'password') return { kind: 'password', wrong: false };
    const decision = await this.limiter.consume(
      `share-password:${share.id}:${throttleKeyOf(request.ip)}`,
      PASSWORD_ATTEMPTS,
      PASSWORD_WINDOW_SECONDS,
    );
    if (!decision.allowed) return { kind: 'password-throttled', retryAfterSeconds: decision.retryAfterSeconds };
    const given = request.form.password ?? '';
    const password = await this.repository.password(share.id);
    if (
      password === null ||
      given.length === 0 ||
      given.length > MAX_PASSWORD_LENGTH ||
      !(await verifyPassword(password.hash, given))
    ) {
      return { kind: 'password', wrong: true };
    }
    visit.cookies.push(this.identity.accessCookie({ id: share.id, passwordVersion: password.version }));
    // Typing the password is a deliberate act, like the reveal click: a reveal step goes on to
    // the document at once; any other link goes back to a plain GET.
    if (!(share.oneTime || share.burnAfterRead)) return { kind: 'back-to-link' };
    visit.passwordTyped = true;
    return PASS;
  }
}
