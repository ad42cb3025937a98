import type { AuthUser } from '../../../auth/auth-context.js';
import type { GateStop } from '../gate-stop.js';
import type { Admission, ViewedShare } from '../../share-view/share-view.repository.js';
import type { CookieToSet, ViewerRequest } from '../../visitor/viewer-answer.js';

/** A policy's "go on to the next one". */
export const PASS = 'pass';

export type GateStep = typeof PASS | GateStop;

/** One visit on its way through the gate; policies read it and note what they established. */
export interface Visit {
  readonly request: ViewerRequest;
  readonly share: ViewedShare;
  /** The visitor key unique counting uses, and the cookie that carries a new one. */
  readonly visitor: { key: string; cookie: CookieToSet | null };
  /** Set on the answer whatever it is: the browser session, password access, the visitor key. */
  readonly cookies: CookieToSet[];
  /** The signed-in account, once the sign-in policy asked for one. */
  user: AuthUser | null;
  /** The browser session a one-session link is bound to, once that policy looked. */
  browserKey: string | null;
  /** The right password was typed in this very request. */
  passwordTyped: boolean;
  /** This visitor's acceptance of the share's agreement, once that policy found it. */
  acceptance: { name: string | null } | null;
  /** Set by the last policy, which counts the visit. */
  admission: Admission | null;
}

export function newVisit(request: ViewerRequest, share: ViewedShare, visitor: Visit['visitor']): Visit {
  return {
    request,
    share,
    visitor,
    cookies: [],
    user: null,
    browserKey: null,
    passwordTyped: false,
    acceptance: null,
    admission: null,
  };
}

/** One check of the gate (see gate.ts for their order): PASS, or where the visit stops. */
export interface GatePolicy {
  check(visit: Visit): GateStep | Promise<GateStep>;
}
