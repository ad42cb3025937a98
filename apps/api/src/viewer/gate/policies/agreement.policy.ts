import { Injectable } from '@nestjs/common';
import { SESSION_COOKIE } from '../../../auth/sessions/sessions.service.js';
import { BoundedMemo } from '../../../common/bounded-memo.js';
import { maskedIpPrefix, throttleKeyOf } from '../../../common/client-address.js';
import { LIMITS } from '@sharedown/contract/limits';
import { isInvisibleOnly } from '../../../common/text/text-rules.js';
import { RateLimiter } from '../../../rate-limit/rate-limiter.js';
import { AgreementAcceptancesRepository } from '../agreement-acceptances.repository.js';
import { ContentRenderer } from '../../documents/content-renderer.js';
import type { GateStop } from '../gate-stop.js';
import { RENDER_LOGIN_COOKIE, ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** How long an agreement page's form can be sent. */
export const AGREEMENT_FORM_SECONDS = 12 * 3600;
/**
 * Acceptances a client network may record per link and window. Each new visitor cookie can accept
 * once, so without this a script minting cookies could fill the owner's acceptance list.
 */
export const AGREEMENT_POSTS = 60;
const AGREEMENT_WINDOW_SECONDS = 15 * 60;
const RENDERED_MEMO_SIZE = 200;
const USER_AGENT_MAX = 512;
// Control and format characters (bidirectional overrides, zero-width marks) would let a name
// that is printed in watermarks read as something else, or as nothing; so would a name of
// invisible characters only (Hangul filler U+3164, braille blank U+2800, line separators).
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u;

/** What the signed hidden field of an agreement form binds it to. */
type AgreementForm = {
  s?: unknown;
  h?: unknown;
  v?: unknown;
};

/**
 * A link with an agreement shows it, and nothing of the document, until this visitor (the visitor
 * cookie) has accepted exactly its current text. The form posts back to the link with a sealed
 * field naming this share, this text and this visitor, so a form of another link, another
 * visitor's form or a post without the visitor cookie records nothing. A recorded acceptance goes
 * back to the link (a GET), where the gate goes on: the reveal step, then counting. Links without
 * an agreement pay nothing here; those with one pay one indexed lookup.
 */
@Injectable()
export class AgreementPolicy implements GatePolicy {
  private readonly renderer = new ContentRenderer();
  private readonly rendered = new BoundedMemo<string, string>(RENDERED_MEMO_SIZE);

  constructor(
    private readonly identity: ViewerIdentity,
    private readonly repository: AgreementAcceptancesRepository,
    private readonly limiter: RateLimiter,
  ) {}

  async check(visit: Visit): Promise<GateStep> {
    const { share, request } = visit;
    const sha256 = share.agreementSha256;
    if (sha256 === null) return PASS;
    if (request.method === 'POST' && request.form.action === 'agree') return this.agree(visit, sha256);
    // An initial visitor key is shared by a whole network's browsers of one kind: no acceptance is
    // ever bound to one, so such a visitor is asked, and gets a key of its own with the page.
    if (!this.identity.isBrowserBound(visit.visitor.key)) return this.page(visit, sha256, null, '');
    const accepted = await this.repository.accepted(share.id, this.identity.visitorId(visit.visitor.key), sha256);
    if (accepted) {
      visit.acceptance = accepted;
      return PASS;
    }
    return this.page(visit, sha256, null, '');
  }

  private async agree(visit: Visit, sha256: string): Promise<GateStep> {
    const { share, request } = visit;
    const visitorId = this.identity.visitorId(visit.visitor.key);
    // A post without the visitor cookie (visitor.cookie is the one to set) belongs to no visitor the form was made for.
    const form = this.identity.agreementForms.open<AgreementForm>(request.form.agreement);
    if (
      visit.visitor.cookie !== null ||
      !this.identity.isBrowserBound(visit.visitor.key) ||
      !form ||
      form.s !== share.id ||
      form.h !== sha256 ||
      form.v !== visitorId
    ) {
      return { kind: 'agreement-forged' };
    }
    const name = (request.form.name ?? '').trim();
    if (request.form.accept === undefined || request.form.accept === '') return this.page(visit, sha256, 'accept', name);
    const { min, max } = LIMITS.agreementName;
    if (
      share.agreementRequireName &&
      ([...name].length < min || [...name].length > max || CONTROL_CHARACTERS.test(name) || isInvisibleOnly(name))
    ) {
      return this.page(visit, sha256, 'name', name);
    }
    const decision = await this.limiter.consume(
      `share-agreement:${share.id}:${throttleKeyOf(request.ip)}`,
      AGREEMENT_POSTS,
      AGREEMENT_WINDOW_SECONDS,
    );
    if (!decision.allowed) return { kind: 'agreement-throttled', retryAfterSeconds: decision.retryAfterSeconds };
    const user = visit.user ?? (await this.signedIn(visit));
    await this.repository.accept({
      shareId: share.id,
      visitorId,
      userId: user?.id ?? null,
      name: share.agreementRequireName ? name : null,
      email: user?.emailVerified ? user.email : null,
      ipPrefix: maskedIpPrefix(request.ip),
      userAgent: (request.userAgent ?? '').slice(0, USER_AGENT_MAX),
      agreementSha256: sha256,
    });
    return { kind: 'back-to-link' };
  }

  private signedIn(visit: Visit) {
    const { cookies } = visit.request;
    return cookies[SESSION_COOKIE] || cookies[RENDER_LOGIN_COOKIE] ? this.identity.user(visit.request) : Promise.resolve(null);
  }

  private async page(visit: Visit, sha256: string, problem: 'accept' | 'name' | null, name: string): Promise<GateStop> {
    const { share } = visit;
    let html = this.rendered.get(sha256);
    if (html === undefined) {
      const text = await this.repository.text(share.id, sha256);
      // The owner changed the text since the gate row was read: the link asks again, afresh.
      if (text === null) return { kind: 'back-to-link' };
      html = this.renderer.renderMarkdown(text);
      this.rendered.set(sha256, html);
    }
    // The form is bound to a visitor key of this browser alone, set with the page when the visitor has none yet.
    let key = visit.visitor.key;
    if (!this.identity.isBrowserBound(key)) {
      const own = this.identity.browserBoundVisitor();
      key = own.key;
      visit.cookies.push(own.cookie);
    }
    const form = this.identity.agreementForms.seal(
      { s: share.id, h: sha256, v: this.identity.visitorId(key) },
      AGREEMENT_FORM_SECONDS,
    );
    return { kind: 'agreement', html, requireName: share.agreementRequireName, form, problem, name };
  }
}
