import { Injectable } from '@nestjs/common';
import { refused } from '../gate-stop.js';
import { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/**
 * A one-session link belongs to the browser session that first opened it. The session cookie is
 * handed out here, whatever comes next; the binding itself is made when the visit is admitted.
 */
@Injectable()
export class OneSessionPolicy implements GatePolicy {
  constructor(private readonly identity: ViewerIdentity) {}

  check(visit: Visit): GateStep {
    const { share, request } = visit;
    if (!share.oneSession) return PASS;
    const browser = this.identity.browserKey(request);
    visit.browserKey = browser.key;
    if (browser.cookie) visit.cookies.push(browser.cookie);
    if (share.sessionOwner !== null && share.sessionOwner !== browser.key) return refused('SESSION_TAKEN');
    return PASS;
  }
}
