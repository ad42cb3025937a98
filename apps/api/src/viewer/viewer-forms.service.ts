import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service.js';
import { SESSION_COOKIE, SESSION_DAYS, SessionsService } from '../auth/sessions.service.js';
import { TwoFactorService } from '../auth/two-factor.service.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { retryAfterHeader } from '../common/error-envelope.filter.js';
import { maskedIpPrefix } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { viewPath } from '../shares/share-row.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { ShareViewRepository } from './share-view.repository.js';
import type { ViewerAnswer, ViewerRequest } from './viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { RENDER_LOGIN_COOKIE, RENDER_LOGIN_SECONDS, ViewerIdentity } from './viewer-identity.js';
import { Signer } from './signer.js';
import { reportPage, twoFactorPage } from './viewer-pages.js';
import { ViewerPresenter } from './viewer-presenter.js';
import { ViewerService } from './viewer.service.js';

// Reports per client address and hour.
const REPORTS_PER_HOUR = 10;
const BOUNCE_TICKET_SECONDS = 60;
// How long the code page of a two-factor sign-in stays usable after the right password.
const TWO_FACTOR_TICKET_SECONDS = 5 * 60;

/** A return path inside the viewer, never an absolute URL that could send the visitor elsewhere. */
export function safeNext(next: string | undefined): string {
  return typeof next === 'string' && /^\/s\/[A-Za-z0-9_\-/%.?=&]*$/.test(next) && !next.includes('//') ? next : '/s/';
}

/** The viewer's small forms: report a share, sign in, and carry a sign-in to a separate render host. */
@Injectable()
export class ViewerFormsService {
  private readonly twoFactorTickets: Signer;

  constructor(
    private readonly viewer: ViewerService,
    private readonly pages: ViewerPresenter,
    private readonly repository: ShareViewRepository,
    private readonly identity: ViewerIdentity,
    private readonly assets: ViewerAssets,
    private readonly limiter: RateLimiter,
    private readonly events: WebhookEventsService,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.twoFactorTickets = new Signer(runtime.sessionSecret, 'two-factor-sign-in');
  }

  async report(request: ViewerRequest, segment: string, token: string): Promise<ViewerAnswer> {
    const share = await this.viewer.find(segment, token);
    if (!share) return this.pages.notFound();
    const action = `${viewPath(share.ownerSegment, share.token)}/report`;
    if (request.method !== 'POST') return { status: 200, body: reportPage(this.assets.urls, action, share.fileName, null) };
    if (!request.sameOrigin) return this.pages.message(403, '请求被拒绝', '表单必须从本站页面提交。');
    // PostgreSQL text cannot hold NUL, and no other control character belongs in a reason either.
    const reason = (request.form.reason ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
    if (reason.length < 3 || reason.length > 1000) {
      return { status: 400, body: reportPage(this.assets.urls, action, share.fileName, '请用 3 到 1000 个字说明原因。') };
    }
    const decision = await this.limiter.consume(`share-report:${request.ip}`, REPORTS_PER_HOUR, 3600);
    if (!decision.allowed) {
      return {
        ...this.pages.message(429, '提交过于频繁', '你提交的举报太多了，请稍后再试。'),
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      };
    }
    const reportedAt = await this.repository.report(share.id, reason, maskedIpPrefix(request.ip));
    const data = { shareId: share.id, token: share.token, fileId: share.fileId, reason, reportedAt: reportedAt.toISOString() };
    return {
      ...this.pages.message(200, '已收到举报', '谢谢，我们已记录你的举报。'),
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
    if (!request.sameOrigin) return this.pages.message(403, '请求被拒绝', '表单必须从本站页面提交。');
    if (!this.runtime.env.PASSWORD_LOGIN) return this.pages.message(403, '无法使用密码登录', '本服务未开放密码登录，请使用其他登录方式。');
    if (request.form.ticket !== undefined) return this.loginSecondStep(request, next);
    const email = (request.form.email ?? '').trim();
    const password = request.form.password ?? '';
    if (!email || !password || email.length > 254 || password.length > 128 || /[\u0000-\u001f]/.test(email)) {
      return this.pages.loginRequired(request, next, '请输入电子邮件和密码。', 400);
    }
    try {
      const user = await this.accounts.login(email, password, request.ip);
      if (user.twoFactorEnabled) {
        const ticket = this.twoFactorTickets.seal({ u: user.id, n: next }, TWO_FACTOR_TICKET_SECONDS);
        return { status: 200, body: twoFactorPage(this.assets.urls, '/s/_login', next, ticket, null) };
      }
      return await this.signedIn(request, user.id, next);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) {
        return { ...this.pages.message(429, '尝试次数过多', error.message), headers: retryAfterHeader(error) };
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return this.pages.loginRequired(request, next, '电子邮件或密码错误。', 401);
      }
      throw error;
    }
  }

  private async loginSecondStep(request: ViewerRequest, formNext: string): Promise<ViewerAnswer> {
    const ticket = request.form.ticket ?? '';
    const pending = this.twoFactorTickets.open<{ u?: unknown; n?: unknown }>(ticket);
    if (!pending || typeof pending.u !== 'string') {
      return this.pages.loginRequired(request, formNext, '验证已超时，请重新输入电子邮件和密码。', 401);
    }
    const next = safeNext(typeof pending.n === 'string' ? pending.n : undefined);
    const code = (request.form.code ?? '').trim();
    if (code.length < 6 || code.length > 32) {
      return { status: 400, body: twoFactorPage(this.assets.urls, '/s/_login', next, ticket, '请输入 6 位验证码或恢复码。') };
    }
    try {
      await this.twoFactor.checkSignIn(pending.u, code, request.ip);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) {
        return { ...this.pages.message(429, '尝试次数过多', error.message), headers: retryAfterHeader(error) };
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return { status: 401, body: twoFactorPage(this.assets.urls, '/s/_login', next, ticket, '验证码错误或已使用。') };
      }
      throw error;
    }
    return this.signedIn(request, pending.u, next);
  }

  private async signedIn(request: ViewerRequest, userId: string, next: string): Promise<ViewerAnswer> {
    const session = await this.sessions.create(userId, {
      method: 'password',
      userAgent: request.userAgent,
      ipPrefix: maskedIpPrefix(request.ip),
    });
    return {
      status: 303,
      body: '',
      location: next,
      cookies: [{ name: SESSION_COOKIE, value: session.cookieValue, maxAge: SESSION_DAYS * 24 * 3600, path: '/' }],
    };
  }

  /**
   * On PUBLIC_URL: turns the console session into a one-minute ticket for the render host, which
   * cannot see the console's cookie when RENDER_URL is a different host.
   */
  async bounce(request: ViewerRequest, next: string | undefined): Promise<ViewerAnswer> {
    const path = safeNext(next);
    const user = await this.identity.user(request);
    if (!user) {
      const back = `/s/_bounce?next=${encodeURIComponent(path)}`;
      return { status: 303, body: '', location: `/s/_login?next=${encodeURIComponent(back)}` };
    }
    const ticket = this.identity.logins.seal({ u: user.id, n: path }, BOUNCE_TICKET_SECONDS);
    return { status: 303, body: '', location: `${this.runtime.env.RENDER_URL}/s/_bounce/return?ticket=${encodeURIComponent(ticket)}` };
  }

  /** On the render host: trades the ticket for a sign-in cookie there and continues to the link. */
  bounceReturn(ticket: string | undefined): ViewerAnswer {
    const payload = this.identity.logins.open<{ u?: unknown; n?: unknown }>(ticket);
    if (!payload || typeof payload.u !== 'string') return this.pages.message(400, '登录已过期', '登录凭据已失效，请重新打开链接。');
    const value = this.identity.logins.seal({ u: payload.u }, RENDER_LOGIN_SECONDS);
    return {
      status: 303,
      body: '',
      location: safeNext(typeof payload.n === 'string' ? payload.n : undefined),
      cookies: [{ name: RENDER_LOGIN_COOKIE, value, maxAge: RENDER_LOGIN_SECONDS }],
    };
  }
}
