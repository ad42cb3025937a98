import { randomBytes } from 'node:crypto';
import { isLocaleTag } from '@sharedown/i18n';
import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../auth/accounts/accounts.service.js';
import type { AuthUser } from '../auth/auth-context.js';
import { UsersRepository } from '../auth/accounts/users.repository.js';
import { SESSION_COOKIE, SESSION_DAYS, SessionsService } from '../auth/sessions/sessions.service.js';
import { TwoFactorService } from '../auth/two-factor/two-factor.service.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { maskedIpPrefix, throttleKeyOf } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { Metrics } from '../metrics/metrics.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { viewPath } from '../shares/share-row.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { ShareViewRepository } from './share-view/share-view.repository.js';
import type { ViewerAnswer, ViewerRequest } from './visitor/viewer-answer.js';
import { RENDER_LOGIN_COOKIE, RENDER_LOGIN_SECONDS, ViewerIdentity } from './visitor/viewer-identity.js';
import { Signer } from './visitor/signer.js';
import { reportPage, twoFactorPage } from './pages/viewer-pages.js';
import { safeNext } from './visitor/viewer-return-path.js';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_SECONDS } from './pages/viewer-locale.js';
import { ViewerPresenter } from './pages/viewer-presenter.js';
import { publicFileName } from './pages/public-file-name.js';
import { ViewerService } from './viewer.service.js';

// Reports per client (an IPv4 address or an IPv6 /64, like every throttle) and hour.
const REPORTS_PER_HOUR = 10;
const BOUNCE_TICKET_SECONDS = 60;
// How long the code page of a two-factor sign-in stays usable after the right password.
const TWO_FACTOR_TICKET_SECONDS = 5 * 60;

/** The viewer's small forms: report a share, sign in, and carry a sign-in to a separate render host. */
@Injectable()
export class ViewerFormsService {
  private readonly twoFactorTickets: Signer;

  constructor(
    private readonly viewer: ViewerService,
    private readonly pages: ViewerPresenter,
    private readonly repository: ShareViewRepository,
    private readonly identity: ViewerIdentity,
    private readonly limiter: RateLimiter,
    private readonly events: WebhookEventsService,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
    private readonly metrics: Metrics,
    private readonly users: UsersRepository,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.twoFactorTickets = new Signer(runtime.sessionSecret, 'two-factor-sign-in');
  }

  async report(request: ViewerRequest, segment: string, token: string): Promise<ViewerAnswer> {
    const share = await this.viewer.find(segment, token);
    if (!share) return this.pages.notFound(request);
    // A revoked link shows nothing any more, so there is nothing left to report.
    if (share.revoked) return this.pages.refused(request, 'REVOKED');
    const action = `${viewPath(share.ownerSegment, share.token)}/report`;
    const context = this.pages.context(request);
    const fileName = publicFileName(share);
    if (request.method !== 'POST') return { status: 200, body: reportPage(context, action, fileName, null) };
    if (!request.sameOrigin) return this.pages.message(request, 403, 'foreignForm');
    // PostgreSQL text cannot hold NUL, and no other control character belongs in a reason either.
    const reason = (request.form.reason ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
    if (reason.length < 3 || reason.length > 1000) {
      return { status: 400, body: reportPage(context, action, fileName, context.text.messages.report.reasonLength) };
    }
    const decision = await this.limiter.consume(`share-report:${throttleKeyOf(request.ip)}`, REPORTS_PER_HOUR, 3600);
    if (!decision.allowed) {
      return {
        ...this.pages.message(request, 429, 'reportThrottled'),
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      };
    }
    const reportedAt = await this.repository.report(share.id, reason, maskedIpPrefix(request.ip));
    if (!reportedAt) return this.pages.notFound(request);
    this.metrics.countReportFiled();
    const data = { shareId: share.id, token: share.token, fileId: share.fileId, reason, reportedAt: reportedAt.toISOString() };
    return {
      ...this.pages.message(request, 200, 'reportReceived'),
      after: () => this.events.emit(share.ownerId, 'share_reported', data),
    };
  }

  loginForm(request: ViewerRequest, next: string | undefined): ViewerAnswer {
    return this.pages.loginRequired(request, safeNext(next), null, 200);
  }

  /**
   * The same sign-in as the console (same throttles, same session), as a plain form. An account
   * with two-factor authentication gets a second page asking for the code, which carries a sealed
   * five-minute ticket of the pending sign-in instead of the password.
   */
  async login(request: ViewerRequest): Promise<ViewerAnswer> {
    const next = safeNext(request.form.next);
    if (!request.sameOrigin) return this.pages.message(request, 403, 'foreignForm');
    if (!this.runtime.env.PASSWORD_LOGIN) return this.pages.message(request, 403, 'passwordLoginOff');
    if (request.form.ticket !== undefined) return this.loginSecondStep(request, next);
    const email = (request.form.email ?? '').trim();
    const password = request.form.password ?? '';
    if (!email || !password || email.length > 254 || password.length > 128 || /[\u0000-\u001f]/.test(email)) {
      return this.pages.loginRequired(request, next, this.pages.context(request).text.messages.signIn.missingFields, 400);
    }
    try {
      const user = await this.accounts.login(email, password, request.ip);
      if (user.twoFactorEnabled) {
        const ticket = this.twoFactorTickets.seal({ u: user.id, n: next }, TWO_FACTOR_TICKET_SECONDS);
        return { status: 200, body: twoFactorPage(this.pages.context(request), '/s/_login', next, ticket, null) };
      }
      return await this.signedIn(request, user, next);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) {
        return this.pages.throttled(request, retryAfterOf(error));
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return this.pages.loginRequired(request, next, this.pages.context(request).text.messages.signIn.wrongCredentials, 401);
      }
      throw error;
    }
  }

  private async loginSecondStep(request: ViewerRequest, formNext: string): Promise<ViewerAnswer> {
    const context = this.pages.context(request);
    const ticket = request.form.ticket ?? '';
    const pending = this.twoFactorTickets.open<{ u?: unknown; n?: unknown }>(ticket);
    if (!pending || typeof pending.u !== 'string') {
      return this.pages.loginRequired(request, formNext, context.text.messages.signIn.ticketExpired, 401);
    }
    const next = safeNext(typeof pending.n === 'string' ? pending.n : undefined);
    const code = (request.form.code ?? '').trim();
    if (code.length < 6 || code.length > 32) {
      return { status: 400, body: twoFactorPage(context, '/s/_login', next, ticket, context.text.messages.twoFactor.codeShape) };
    }
    try {
      await this.twoFactor.checkSignIn(pending.u, code, request.ip);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) {
        return this.pages.throttled(request, retryAfterOf(error));
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return {
          status: 401,
          body: twoFactorPage(context, '/s/_login', next, ticket, context.text.messages.twoFactor.wrongCode),
        };
      }
      throw error;
    }
    const user = await this.users.findById(pending.u);
    if (!user) return this.pages.loginRequired(request, formNext, context.text.messages.signIn.ticketExpired, 401);
    return this.signedIn(request, user, next);
  }

  private async signedIn(request: ViewerRequest, user: AuthUser, next: string): Promise<ViewerAnswer> {
    // With e-mail set up, a password opens only an account whose address was proven (as on the
    // console, asked once the password and second factor were right): the page offers the proof.
    if (this.runtime.env.SMTP_URL && !user.emailVerified) return this.pages.unverified(request, user, next);
    let session: Awaited<ReturnType<SessionsService['create']>>;
    try {
      session = await this.sessions.create(user.id, {
        method: 'password',
        userAgent: request.userAgent,
        ipPrefix: maskedIpPrefix(request.ip),
      });
    } catch (error) {
      // The only refusal of a session for a proven identity: an administrator disabled the account.
      if (error instanceof AppError && error.code === ErrorCode.FORBIDDEN) return this.pages.accountDisabled(request);
      throw error;
    }
    return {
      status: 303,
      body: '',
      location: next,
      cookies: [{ name: SESSION_COOKIE, value: session.cookieValue, maxAge: SESSION_DAYS * 24 * 3600, path: '/' }],
    };
  }

  /** GET /s/_lang: the language cookie for the pages of this origin, then back to the page. */
  language(to: string | undefined, next: string | undefined): ViewerAnswer {
    return {
      status: 303,
      body: '',
      location: safeNext(next),
      // Share links live under /s/, document requests under /r/: the choice holds for both.
      cookies: isLocaleTag(to)
        ? ['/s/', '/r/'].map((path) => ({ name: LANGUAGE_COOKIE, value: to, maxAge: LANGUAGE_COOKIE_SECONDS, path }))
        : [],
    };
  }

  /**
   * On PUBLIC_URL: turns the console session into a one-minute ticket for the render host, which
   * cannot see the console's cookie when RENDER_URL is a different host.
   */
  async bounce(request: ViewerRequest, next: string | undefined): Promise<ViewerAnswer> {
    const path = safeNext(next);
    const session = await this.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (!session) {
      const back = `/s/_bounce?next=${encodeURIComponent(path)}`;
      return { status: 303, body: '', location: `/s/_login?next=${encodeURIComponent(back)}` };
    }
    // The ticket names the console session, whose life the render host's sign-in will share, and
    // carries an id of its own so it can be used once.
    const ticket = this.identity.loginTickets.seal(
      { s: session.sessionId, n: path, j: randomBytes(16).toString('base64url') },
      BOUNCE_TICKET_SECONDS,
    );
    return {
      status: 303,
      body: '',
      location: `${this.runtime.env.RENDER_URL}/s/_bounce/return?ticket=${encodeURIComponent(ticket)}`,
    };
  }

  /** On the render host: trades the ticket for a sign-in cookie there and continues to the link. */
  async bounceReturn(request: ViewerRequest, ticket: string | undefined): Promise<ViewerAnswer> {
    const payload = this.identity.loginTickets.open<{ s?: unknown; n?: unknown; j?: unknown; x?: unknown }>(ticket);
    // The ticket is sealed by this service: its session id is one it read from the sessions table.
    if (!payload || typeof payload.s !== 'string' || typeof payload.j !== 'string') {
      return this.pages.message(request, 400, 'loginExpired');
    }
    const login = await this.sessions.startRenderLogin({
      id: payload.j,
      expiresAt: new Date(Number(payload.x) * 1000),
      parentId: payload.s,
      seconds: RENDER_LOGIN_SECONDS,
      userAgent: request.userAgent,
      ipPrefix: maskedIpPrefix(request.ip),
    });
    // Used before, or the console session ended (sign-out, another device, a disabled account).
    if (!login) return this.pages.message(request, 400, 'loginExpired');
    const maxAge = Math.max(1, Math.floor((login.expiresAt.getTime() - Date.now()) / 1000));
    return {
      status: 303,
      body: '',
      location: safeNext(typeof payload.n === 'string' ? payload.n : undefined),
      // The sign-in holds for share links (/s/) and document requests (/r/) of the render host alike.
      cookies: ['/s/', '/r/'].map((path) => ({ name: RENDER_LOGIN_COOKIE, value: login.cookieValue, maxAge, path })),
    };
  }
}

/** Seconds until a throttled sign-in may try again, as the rate limiter said. */
export function retryAfterOf(error: AppError): number {
  const seconds = error.retryAfterSeconds ?? 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 60;
}
