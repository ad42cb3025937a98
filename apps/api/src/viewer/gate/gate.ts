import type { Provider, Type } from '@nestjs/common';
import type { GateStop } from './gate-stop.js';
import { AgreementPolicy } from './policies/agreement.policy.js';
import { AllowlistPolicy } from './policies/allowlist.policy.js';
import { CapsPolicy } from './policies/caps.policy.js';
import { ContentPolicy } from './policies/content.policy.js';
import { FormOriginPolicy } from './policies/form-origin.policy.js';
import { PASS, type GatePolicy, type Visit } from './policies/gate-policy.js';
import { LinkPreviewPolicy } from './policies/link-preview.policy.js';
import { LoginPolicy } from './policies/login.policy.js';
import { OneSessionPolicy } from './policies/one-session.policy.js';
import { PasswordPolicy } from './policies/password.policy.js';
import { RevealPolicy } from './policies/reveal.policy.js';
import { ScanStatusPolicy } from './policies/scan-status.policy.js';
import { StatePolicy } from './policies/state.policy.js';

/**
 * The viewer's gate, in the order a visit meets it. The first policy that does not pass decides
 * the answer; nothing of the document leaves before the last one has counted the visit.
 *
 * The common view skips this list: a browser's GET of a link that asks nothing of the visitor
 * (no password, sign-in, reveal step or one-session rule; CLEAN and not gone) is judged and
 * admitted by `share_open_visits` in the same round trip that reads the link (see
 * VisitAdmissions.open). A new policy that asks something of the visitor must also keep such
 * links out of that function.
 */
export const GATE_POLICIES = [
  StatePolicy, // revoked, trashed, expired, used up
  ScanStatusPolicy, // CLEAN only
  LinkPreviewPolicy, // HEAD and link previews: the link exists, nothing more
  FormOriginPolicy, // forms from this service's pages only
  LoginPolicy,
  AllowlistPolicy, // proven addresses only
  OneSessionPolicy,
  PasswordPolicy,
  AgreementPolicy, // nothing of the document before the agreement is accepted
  RevealPolicy,
  ContentPolicy, // the page can be shown
  CapsPolicy, // counts the visit: caps, one-time, the one-session binding
] as const satisfies readonly Type<GatePolicy>[];

export class ViewerGate {
  constructor(private readonly policies: readonly GatePolicy[]) {}

  /** Where the visit stops, or null: admitted (`visit.admission` is set). */
  async pass(visit: Visit): Promise<GateStop | null> {
    for (const policy of this.policies) {
      const step = await policy.check(visit);
      if (step !== PASS) return step;
    }
    return null;
  }
}

/** The policies, and the gate built from them in GATE_POLICIES' order. */
export const VIEWER_GATE_PROVIDERS: Provider[] = [
  ...GATE_POLICIES,
  {
    provide: ViewerGate,
    inject: [...GATE_POLICIES],
    useFactory: (...policies: GatePolicy[]) => new ViewerGate(policies),
  },
];
