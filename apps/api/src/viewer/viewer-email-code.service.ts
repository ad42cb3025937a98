import { Inject, Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { AuthUser } from '../auth/auth-context.js';
import { EmailSignInService } from '../auth/email/email-sign-in.service.js';
import { EmailVerificationService } from '../auth/email/email-verification.service.js';
import { SESSION_COOKIE, SESSION_DAYS, SessionsService } from '../auth/sessions.service.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { statusOf } from '../common/error-code.js';
import { retryAfterHeader } from '../common/error-envelope.filter.js';
import { maskedIpPrefix } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import type { ViewerAnswer, ViewerRequest } from './viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { safeNext } from './viewer-forms.service.js';
import { ViewerIdentity } from './viewer-identity.js';
import { ViewerPresenter } from './viewer-presenter.js';
import {
  EMAIL_CODE_SEND,
  emailCodeEntryPage,
  emailCodeRequestPage,
  verifyOfferPage,
  type CodeEntry,
  type CodeMode,
} from './email-code-pages.js';

const CODE_SHAPE = /^[0-9]{6}$/;

/**
 * The viewer's e-mail code forms on PUBLIC_URL (where the console session lives): sign in with a
 * mailed code, or prove the signed-in account's address, then back to the link. The same
 * services, throttles and session as the console's routes; a separate render host gets the
 * sign-in through the existing bounce, which `next` leads through.
 */
@Injectable()
export class ViewerEmailCodeService {
  private readonly publicOrigin: string;

  constructor(
    private readonly pages: ViewerPresenter,
    private readonly assets: ViewerAssets,
    private readonly identity: ViewerIdentity,
    private readonly sessions: SessionsService,
    private readonly signIn: EmailSignInService,
    private readonly verification: EmailVerificationService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.publicOrigin = new URL(runtime.env.PUBLIC_URL).origin;
  }

  /** GET /s/_email-code: the address form, or (mode=verify, signed in) the offer to prove the account's address. */
  async form(request: ViewerRequest, query: { next?: string; mode?: string }): Promise<ViewerAnswer> {
    const next = safeNext(query.next);
    const refused = this.refusal(request);
    if (refused) return refused;
    if (query.mode === 'verify') {
      const user = await this.identity.user(request);
      if (!user) return this.pages.loginRequired(request, next, null, 401);
      if (user.emailVerified) return { status: 303, body: '', location: next };
      return { status: 200, body: verifyOfferPage(this.assets.urls, user.email, next) };
    }
    return { status: 200, body: emailCodeRequestPage(this.assets.urls, next, null) };
  }

  /** POST /s/_email-code: queues a code (always the same answer for a sign-in code) and asks for it. */
  async send(request: ViewerRequest): Promise<ViewerAnswer> {
    const next = safeNext(request.form.next);
    const refused = this.refusal(request);
    if (refused) return refused;
    try {
      if (request.form.mode === 'verify') {
        const user = await this.identity.user(request);
        if (!user) return this.pages.loginRequired(request, next, null, 401);
        if (user.emailVerified) return { status: 303, body: '', location: next };
        await this.verification.sendForAccount(user, request.ip);
        return this.entry(200, { mode: 'verify', email: user.email, next, error: null });
      }
      const email = (request.form.email ?? '').trim();
      if (!plausibleEmail(email))
        return { status: 400, body: emailCodeRequestPage(this.assets.urls, next, '请输入有效的电子邮件地址。') };
      await this.signIn.send(email, request.ip);
      return this.entry(200, { mode: 'sign-in', email, next, error: null });
    } catch (error) {
      return this.failure(error);
    }
  }

  /** POST /s/_email-code/verify: the code (and a second factor when the account has one); signed in, back to `next`. */
  async verify(request: ViewerRequest): Promise<ViewerAnswer> {
    const next = safeNext(request.form.next);
    const refused = this.refusal(request);
    if (refused) return refused;
    const mode: CodeMode = request.form.mode === 'verify' ? 'verify' : 'sign-in';
    const email = (request.form.email ?? '').trim();
    const code = (request.form.code ?? '').trim();
    const twoFactorCode = request.form.twoFactorCode?.trim() || undefined;
    const entry: CodeEntry = { mode, email, next, error: null };
    if (!plausibleEmail(email))
      return { status: 400, body: emailCodeRequestPage(this.assets.urls, next, '请输入有效的电子邮件地址。') };
    if (!CODE_SHAPE.test(code)) return this.entry(400, { ...entry, error: '请输入邮件中的 6 位数字验证码。' });
    if (twoFactorCode !== undefined && (twoFactorCode.length < 6 || twoFactorCode.length > 32)) {
      return this.entry(400, { ...entry, twoFactor: { emailCode: code }, error: '请输入 6 位验证码或恢复码。' });
    }
    try {
      let user: AuthUser;
      if (mode === 'verify') {
        const signedIn = await this.identity.user(request);
        const verified = await this.verification.verify(email, code, twoFactorCode, signedIn, request.ip);
        if (!verified.signIn) return { status: 303, body: '', location: next };
        user = verified.user;
      } else {
        user = await this.signIn.verify(email, code, twoFactorCode, request.ip);
      }
      return await this.signedIn(request, user.id, next);
    } catch (error) {
      if (error instanceof AppError && error.extras.twoFactorRequired) {
        const again = twoFactorCode !== undefined ? '验证码错误或已使用。' : null;
        return this.entry(401, { ...entry, twoFactor: { emailCode: code }, error: again });
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return this.entry(401, { ...entry, error: '验证码错误或已失效，请重新获取。' });
      }
      if (error instanceof AppError && error.code === ErrorCode.CONFLICT) {
        return this.entry(409, { ...entry, error: '验证码已被使用，请重新获取。' });
      }
      return this.failure(error);
    }
  }

  /** Off without SMTP; forms only on PUBLIC_URL, from its own pages. */
  private refusal(request: ViewerRequest): ViewerAnswer | null {
    if (!this.signIn.enabled) return this.pages.message(404, '页面不存在', '本服务未开放电子邮件验证码登录。');
    if (request.origin !== this.publicOrigin) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return this.pages.message(403, '请求被拒绝', '请在本站登录页面提交。');
      return { status: 303, body: '', location: `${this.runtime.env.PUBLIC_URL}${EMAIL_CODE_SEND}${queryOf(request.path)}` };
    }
    if (request.method === 'POST' && !request.sameOrigin)
      return this.pages.message(403, '请求被拒绝', '表单必须从本站页面提交。');
    return null;
  }

  private entry(status: number, entry: CodeEntry): ViewerAnswer {
    return { status, body: emailCodeEntryPage(this.assets.urls, entry) };
  }

  private failure(error: unknown): ViewerAnswer {
    if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) {
      return { ...this.pages.message(429, '尝试次数过多', error.message), headers: retryAfterHeader(error) };
    }
    if (error instanceof AppError && statusOf(error.code) < 500) return this.pages.message(statusOf(error.code), '无法完成', error.message);
    throw error;
  }

  private async signedIn(request: ViewerRequest, userId: string, next: string): Promise<ViewerAnswer> {
    const session = await this.sessions.create(userId, {
      method: 'email-code',
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
}

function plausibleEmail(email: string): boolean {
  return email.length <= 254 && isEmail(email);
}

function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? '' : path.slice(at);
}
