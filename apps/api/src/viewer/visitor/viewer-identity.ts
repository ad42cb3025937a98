import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-context.js';
import { SESSION_COOKIE, SessionsService } from '../../auth/sessions/sessions.service.js';
import { maskedIpPrefix } from '../../common/client-address.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { BoundedMemo } from '../../common/bounded-memo.js';
import { Signer } from './signer.js';
import type { CookieToSet, ViewerRequest } from './viewer-answer.js';

/** Marks a random per-browser visitor key (browserBoundVisitor); initial keys start with `a`. */
const BROWSER_BOUND_PREFIX = 'b';

export const VISITOR_COOKIE = 'sd_visitor';
export const BROWSER_COOKIE = 'sd_browser';
/** Sign-in carried over to a RENDER_URL on another host (see `bounce`). */
export const RENDER_LOGIN_COOKIE = 'sd_login';
const YEAR = 365 * 24 * 3600;
const VISITOR_MEMO_SIZE = 10_000;
export const ACCESS_SECONDS = 12 * 3600;
export const RENDER_LOGIN_SECONDS = 12 * 3600;

/** A password unlock's payload: the share, the password version proved, and the expiry (Signer.seal). */
type AccessPass = { s?: unknown; p?: unknown; x: number };

export function accessCookieName(shareId: string): string {
  return `sd_access_${shareId.replace(/-/g, '')}`;
}

/**
 * Who is visiting: the visitor key for unique counting, the browser session for one-session
 * links, the signed-in account for login-only links, and per-share password access. All of it
 * lives in HttpOnly cookies on the render origin, signed with keys derived from the session secret.
 */
@Injectable()
export class ViewerIdentity {
  readonly visitors: Signer;
  readonly browsers: Signer;
  readonly access: Signer;
  readonly frames: Signer;
  /** One-minute tickets carrying a console sign-in to a separate render host (never a cookie). */
  readonly loginTickets: Signer;
  /** The visit log's visitor ids: a keyed digest of the visitor key, never the cookie's value. */
  readonly visitorIds: Signer;
  /** The visit ids the viewer page's engagement beacons carry. */
  readonly visits: Signer;
  /** The hidden field of an agreement form: this share, this text, this visitor. */
  readonly agreementForms: Signer;
  /** The admitted visit of a collection, remembered for its document pages (see CollectionPasses). */
  readonly collectionVisits: Signer;
  /** Visitor cookies already verified, and the initial keys (and their cookies) made for an address and agent. */
  private readonly verifiedVisitors = new BoundedMemo<string, string>(VISITOR_MEMO_SIZE);
  private readonly initialVisitors = new BoundedMemo<string, { key: string; cookie: CookieToSet }>(VISITOR_MEMO_SIZE);
  private readonly loggedVisitorIds = new BoundedMemo<string, string>(VISITOR_MEMO_SIZE);
  /** Password access cookies already verified (their expiry is still judged at each use). */
  private readonly verifiedAccess = new BoundedMemo<string, AccessPass>(VISITOR_MEMO_SIZE);

  constructor(
    @Inject(RUNTIME) runtime: Runtime,
    private readonly sessions: SessionsService,
  ) {
    this.visitors = new Signer(runtime.sessionSecret, 'visitor');
    this.browsers = new Signer(runtime.sessionSecret, 'browser');
    this.access = new Signer(runtime.sessionSecret, 'password-access');
    this.frames = new Signer(runtime.sessionSecret, 'frame');
    this.loginTickets = new Signer(runtime.sessionSecret, 'render-login-ticket');
    this.visitorIds = new Signer(runtime.sessionSecret, 'visitor-id');
    this.visits = new Signer(runtime.sessionSecret, 'visit');
    this.agreementForms = new Signer(runtime.sessionSecret, 'agreement-form');
    this.collectionVisits = new Signer(runtime.sessionSecret, 'collection-visit');
  }

  /**
   * The visitor cookie's key, or (first visit, no cookie) one made from the masked IP prefix and the
   * User-Agent; that initial key then goes into the cookie, so the first visit and later ones agree.
   */
  visitorKey(request: ViewerRequest): { key: string; cookie: CookieToSet | null } {
    const presented = request.cookies[VISITOR_COOKIE];
    if (presented) {
      // Every view checks this cookie; an authentic value stays authentic, so it is checked once.
      const known = this.verifiedVisitors.get(presented);
      if (known !== undefined) return { key: known, cookie: null };
      const fromCookie = this.visitors.verify(presented);
      if (fromCookie !== null) {
        this.verifiedVisitors.set(presented, fromCookie);
        return { key: fromCookie, cookie: null };
      }
    }
    const origin = `${maskedIpPrefix(request.ip)}\n${request.userAgent ?? ''}`;
    let initial = this.initialVisitors.get(origin);
    if (initial === undefined) {
      const key = `a${this.visitors.digest(origin).slice(0, 26)}`;
      // One cookie object for every answer to this origin: its Set-Cookie text is made once (ViewerHttp).
      const cookie: CookieToSet = Object.freeze({
        name: VISITOR_COOKIE,
        value: this.visitors.sign(key),
        maxAge: YEAR,
        shared: true,
      });
      initial = { key, cookie };
      this.initialVisitors.set(origin, initial);
    }
    return { key: initial.key, cookie: initial.cookie };
  }

  /**
   * A visitor key of this browser alone: random, never derived from the address and agent. An
   * agreement binds its acceptance to such a key, since an initial key is shared by everyone on the
   * same network with the same browser and would let one reader's acceptance (and name) stand for
   * another's.
   */
  browserBoundVisitor(): { key: string; cookie: CookieToSet } {
    const key = `${BROWSER_BOUND_PREFIX}${randomBytes(20).toString('base64url')}`;
    return { key, cookie: { name: VISITOR_COOKIE, value: this.visitors.sign(key), maxAge: YEAR } };
  }

  /** Whether a visitor key was made by browserBoundVisitor (an initial key starts with `a`). */
  isBrowserBound(key: string): boolean {
    return key.startsWith(BROWSER_BOUND_PREFIX);
  }

  /** The visit log's id of a visitor key (a keyed digest, never the key), made once per key and process. */
  visitorId(key: string): string {
    let id = this.loggedVisitorIds.get(key);
    if (id === undefined) this.loggedVisitorIds.set(key, (id = this.visitorIds.digest(key).slice(0, 22)));
    return id;
  }

  /** A browser-session id (a cookie without expiry); the database only ever sees its digest. */
  browserKey(request: ViewerRequest): { key: string; cookie: CookieToSet | null } {
    const existing = this.browsers.verify(request.cookies[BROWSER_COOKIE]);
    if (existing !== null) return { key: this.browsers.digest(`owner:${existing}`), cookie: null };
    const id = randomBytes(18).toString('base64url');
    return { key: this.browsers.digest(`owner:${id}`), cookie: { name: BROWSER_COOKIE, value: this.browsers.sign(id) } };
  }

  /**
   * Whether this browser proved the share's password in force: an authentic, fresh access cookie
   * of this share naming its current password version (a cookie from before versions counts as
   * version 0). After the password changes, the next request on any replica asks for it again.
   */
  hasAccess(request: ViewerRequest, share: { id: string; passwordVersion: number }): boolean {
    const presented = request.cookies[accessCookieName(share.id)];
    if (!presented) return false;
    // Every view of an unlocked link checks this cookie; an authentic value stays authentic, so its signature is checked once.
    let payload = this.verifiedAccess.get(presented);
    if (payload === undefined) {
      const opened = this.access.open<AccessPass>(presented);
      if (opened === null) return false;
      this.verifiedAccess.set(presented, (payload = opened));
    }
    return payload.x >= Date.now() / 1000 && payload.s === share.id && (payload.p ?? 0) === share.passwordVersion;
  }

  /** The unlock of a share's password, bound to the version it proved. */
  accessCookie(share: { id: string; passwordVersion: number }): CookieToSet {
    const value = this.access.seal({ s: share.id, p: share.passwordVersion }, ACCESS_SECONDS);
    return { name: accessCookieName(share.id), value, maxAge: ACCESS_SECONDS };
  }

  /** Whether any cookie names a signed-in account (the console's, or a separate render host's). */
  mayBeSignedIn(request: ViewerRequest): boolean {
    return Boolean(request.cookies[SESSION_COOKIE] || request.cookies[RENDER_LOGIN_COOKIE]);
  }

  /**
   * The signed-in account: the console session, or a sign-in carried over to a separate render
   * host, which lives only as long as the console session it came from (checked in the database
   * on every request).
   */
  async user(request: ViewerRequest): Promise<AuthUser | null> {
    const session = await this.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (session) return session.user;
    return this.sessions.resolveRenderLogin(request.cookies[RENDER_LOGIN_COOKIE]);
  }
}
