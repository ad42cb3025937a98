import { Inject, Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { AuthUser } from '../auth/auth-context.js';
import { EmailSignInService } from '../auth/email/email-sign-in.service.js';
import { EmailVerificationService } from '../auth/email/email-verification.service.js';
import { SESSION_COOKIE, SESSION_DAYS, SessionsService } from '../auth/sessions/sessions.service.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { statusOf } from '../common/error-code.js';
import { maskedIpPrefix } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import type { ViewerAnswer, ViewerRequest } from './visitor/viewer-answer.js';
import { retryAfterOf } from './viewer-forms.service.js';
import { ViewerIdentity } from './visitor/viewer-identity.js';
import { ViewerPresenter } from './pages/viewer-presenter.js';
import { safeNext } from './visitor/viewer-return-path.js';
import {
  EMAIL_CODE_SEND,
  emailCodeEntryPage,
  emailCodeRequestPage,
  verifyOfferPage,
  type CodeEntry,
  type CodeMode,
} from './pages/email-code-pages.js';

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
      return { status: 200, body: verifyOfferPage(this.pages.context(request), user.email, next) };
    }
    return { status: 200, body: emailCodeRequestPage(this.pages.context(request), next, null) };
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
        return this.entry(request, 200, { mode: 'verify', email: user.email, next, error: null });
      }
      const email = (request.form.email ?? '').trim();
      if (!plausibleEmail(email)) return this.invalidEmail(request, next);
      await this.signIn.send(email, request.ip);
      return this.entry(request, 200, { mode: 'sign-in', email, next, error: null });
    } catch (error) {
      return this.failure(request, error);
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
    const words = this.pages.context(request).text.messages;
    if (!plausibleEmail(email)) return this.invalidEmail(request, next);
    if (!CODE_SHAPE.test(code)) return this.entry(request, 400, { ...entry, error: words.emailCode.codeShape });
    if (twoFactorCode !== undefined && (twoFactorCode.length < 6 || twoFactorCode.length > 32)) {
      return this.entry(request, 400, { ...entry, twoFactor: { emailCode: code }, error: words.twoFactor.codeShape });
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
        const again = twoFactorCode !== undefined ? words.twoFactor.wrongCode : null;
        return this.entry(request, 401, { ...entry, twoFactor: { emailCode: code }, error: again });
      }
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED) {
        return this.entry(request, 401, { ...entry, error: words.emailCode.wrongCode });
      }
      if (error instanceof AppError && error.code === ErrorCode.CONFLICT) {
        return this.entry(request, 409, { ...entry, error: words.emailCode.usedCode });
      }
      return this.failure(request, error);
    }
  }

  /** Off without SMTP; forms only on PUBLIC_URL, from its own pages. */
  private refusal(request: ViewerRequest): ViewerAnswer | null {
    if (!this.signIn.enabled) return this.pages.message(request, 404, 'emailCodesOff');
    if (request.origin !== this.publicOrigin) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return this.pages.message(request, 403, 'submitOnSite');
      return { status: 303, body: '', location: `${this.runtime.env.PUBLIC_URL}${EMAIL_CODE_SEND}${queryOf(request.path)}` };
    }
    if (request.method === 'POST' && !request.sameOrigin) return this.pages.message(request, 403, 'foreignForm');
    return null;
  }

  private entry(request: ViewerRequest, status: number, entry: CodeEntry): ViewerAnswer {
    return { status, body: emailCodeEntryPage(this.pages.context(request), entry) };
  }

  private invalidEmail(request: ViewerRequest, next: string): ViewerAnswer {
    const context = this.pages.context(request);
    return { status: 400, body: emailCodeRequestPage(context, next, context.text.messages.emailCode.invalidEmail) };
  }

  private failure(request: ViewerRequest, error: unknown): ViewerAnswer {
    if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED)
      return this.pages.throttled(request, retryAfterOf(error));
    if (error instanceof AppError && statusOf(error.code) < 500) return this.pages.failure(request, error);
    throw error;
  }

  private async signedIn(request: ViewerRequest, userId: string, next: string): Promise<ViewerAnswer> {
    let session: Awaited<ReturnType<SessionsService['create']>>;
    try {
      session = await this.sessions.create(userId, {
        method: 'email-code',
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
}

function plausibleEmail(email: string): boolean {
  return email.length <= 254 && isEmail(email);
}

function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? '' : path.slice(at);
}
