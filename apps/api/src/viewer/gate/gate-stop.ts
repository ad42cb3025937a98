import type { AuthUser } from '../../auth/auth-context.js';
import type { AdmissionOutcome } from '../share-view/share-view.repository.js';

/** An admission the database refused, or a link that does not exist. */
export type RefusedOutcome = Exclude<AdmissionOutcome, 'ADMITTED'>;

/**
 * Where the gate stops a visit, and what the visitor is to be told there. Domain values only:
 * ViewerPresenter turns each into a page, a status, headers and a Location.
 */
export type GateStop =
  /** Gone, used up, taken by another browser session, or over a per-visitor or per-account cap. */
  | { kind: 'refused'; outcome: RefusedOutcome }
  | { kind: 'trashed' }
  /** An administrator disabled the owner's account. */
  | { kind: 'owner-disabled' }
  /** An administrator disabled the link after a report: gone for good. */
  | { kind: 'share-disabled' }
  | { kind: 'quarantined' }
  | { kind: 'scanning' }
  | { kind: 'scan-failed' }
  /** HEAD: the link exists, nothing more. */
  | { kind: 'link-exists' }
  /** A link scanner or chat preview: a neutral page. */
  | { kind: 'link-preview' }
  /** A form posted from another site. */
  | { kind: 'foreign-form' }
  | { kind: 'sign-in' }
  /** An allowlisted link and a signed-in account whose address nobody proved. */
  | { kind: 'unverified'; user: AuthUser }
  | { kind: 'not-listed'; email: string }
  | { kind: 'password'; wrong: boolean }
  | { kind: 'password-throttled'; retryAfterSeconds: number }
  | { kind: 'agreement-throttled'; retryAfterSeconds: number }
  | { kind: 'reveal' }
  /**
   * The agreement (sanitized HTML of its Markdown) and its form: `form` the sealed field binding it
   * to this share, text and visitor; `problem` what was wrong with the form just sent.
   */
  | { kind: 'agreement'; html: string; requireName: boolean; form: string; problem: 'accept' | 'name' | null; name: string }
  /** An agreement form of another link, visitor or text, or sent without the visitor cookie. */
  | { kind: 'agreement-forged' }
  /** A form that was handled: back to the link (a GET). */
  | { kind: 'back-to-link' }
  /** The version went out of CLEAN between the gate row and the content. */
  | { kind: 'unavailable' };

export function refused(outcome: RefusedOutcome): GateStop {
  return { kind: 'refused', outcome };
}
