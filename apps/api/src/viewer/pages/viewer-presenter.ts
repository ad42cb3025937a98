import { publicFileName } from './public-file-name.js';
import { statusOf } from '../../common/error-code.js';
import { Inject, Injectable } from '@nestjs/common';
import { SHARED_MESSAGES, apiErrorText } from '@sharedown/i18n';
import type { AuthUser } from '../../auth/auth-context.js';
import type { AppError } from '../../common/app-error.js';
import { isUnavailable } from '../../common/database-errors.js';
import { escapeHtml } from '../../common/text/html.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../common/unavailable.js';
import { viewPath } from '../../shares/share-row.js';
import { EMAIL_CODE_SEND, emailCodeSection, unverifiedPage, type VerifyOffer } from './email-code-pages.js';
import type { GateStop, RefusedOutcome } from '../gate/gate-stop.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';
import type { ViewerAnswer, ViewerRequest } from '../visitor/viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { safeReturnPath } from '../visitor/viewer-return-path.js';
import {
  agreementPage,
  collectionPage,
  documentPage,
  linkPreviewPage,
  loginPage,
  messagePage,
  passwordPage,
  revealPage,
  type PageContext,
} from './viewer-pages.js';
import { ViewerText, type ViewerMessages } from './viewer-text.js';
import type { ViewResult } from './view-result.js';

const REFUSAL_STATUS: Record<RefusedOutcome, number> = {
  NOT_FOUND: 404,
  REVOKED: 410,
  EXPIRED: 410,
  CONSUMED: 410,
  SESSION_TAKEN: 403,
  VISITOR_LIMIT: 410,
  USER_LIMIT: 410,
};

/** The pages that are only a heading and a sentence. */
export type MessageState = Exclude<keyof ViewerMessages['states'], 'failed'>;

function assertUnreachable(value: never): never {
  throw new Error(`no page for ${JSON.stringify(value)}`);
}

/**
 * Turns what the viewer decided into what the visitor gets: a page, its status, headers, the
 * cookies to set and a Location. The only place in the viewer that chooses status codes.
 */
@Injectable()
export class ViewerPresenter {
  private readonly publicOrigin: string;

  constructor(
    private readonly assets: ViewerAssets,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.publicOrigin = new URL(runtime.env.PUBLIC_URL).origin;
  }

  /** What the pages of this request are built with: its language, and where a language switch leads back to. */
  context(request: ViewerRequest): PageContext {
    return {
      assets: this.assets.urls,
      text: new ViewerText(request.locale),
      returnPath: safeReturnPath(request),
      sender: senderOf(request.path),
    };
  }

  /** A page of a heading and a sentence, in the visitor's language. */
  message(
    request: ViewerRequest,
    status: number,
    state: MessageState,
    params: Record<string, string | number> = {},
    extra = '',
  ): ViewerAnswer {
    const context = this.context(request);
    const words = context.text.messages.states[state];
    return { status, body: messagePage(context, words.title, context.text.format(words.body, params), extra) };
  }

  /**
   * The page of a request that failed: while the database or Redis cannot be reached, 503 and a
   * Retry-After (reloading in a moment works, and clients and proxies know to retry); else 500.
   */
  serverFailure(request: ViewerRequest, error: unknown): ViewerAnswer {
    if (!isUnavailable(error)) return this.message(request, 500, 'serverError');
    return {
      ...this.message(request, 503, 'serviceUnavailable'),
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    };
  }

  /**
   * A refusal of the sign-in services the viewer has no page of its own for: the service's own
   * (Chinese) words for a Chinese page, else the visitor's language's words for its code.
   */
  failure(request: ViewerRequest, error: AppError): ViewerAnswer {
    const context = this.context(request);
    const message = request.locale === 'zh-CN' ? error.message : apiErrorText(SHARED_MESSAGES[request.locale], error);
    return { status: statusOf(error.code), body: messagePage(context, context.text.messages.states.failed.title, message) };
  }

  /** Too many tries: when to try again, in whole minutes of the visitor's language. */
  throttled(
    request: ViewerRequest,
    retryAfterSeconds: number,
    state: 'tooManyAttempts' | 'passwordThrottled' = 'tooManyAttempts',
  ): ViewerAnswer {
    const text = new ViewerText(request.locale);
    return {
      ...this.message(request, 429, state, { duration: text.minutes(Math.max(1, Math.ceil(retryAfterSeconds / 60))) }),
      headers: { 'Retry-After': String(retryAfterSeconds) },
    };
  }

  notFound(request: ViewerRequest): ViewerAnswer {
    return this.refused(request, 'NOT_FOUND');
  }

  /** A share view: the document of an admitted visit, or the page of the policy that stopped it. */
  view(request: ViewerRequest, result: ViewResult): ViewerAnswer {
    switch (result.kind) {
      case 'not-found':
        return this.notFound(request);
      case 'stopped':
        return { ...this.stop(request, result.share, result.stop, result.here), cookies: result.cookies };
      case 'collection': {
        const { share } = result;
        const body = collectionPage({
          context: this.context(request),
          folderName: share.fileName,
          linkPath: result.linkPath,
          reportUrl: `${viewPath(share.ownerSegment, share.token)}/report`,
          documents: result.documents,
        });
        return { status: 200, body, cookies: result.cookies, after: result.after };
      }
      case 'shown': {
        const { share, content, watermark, frameUrl } = result;
        const body = documentPage({
          context: this.context(request),
          fileName: share.fileName,
          shareId: share.id,
          versionId: share.versionId!,
          reportUrl: `${viewPath(share.ownerSegment, share.token)}/report`,
          inlineHtml: share.fileKind === 'HTML' ? null : content.bytes,
          frameUrl,
          watermark,
          copyProtection: share.copyProtection,
          burnAfterRead: share.burnAfterRead,
          beacon: result.beacon,
          backUrl: result.backUrl ?? null,
        });
        return { status: 200, body, cookies: result.cookies, after: result.after };
      }
      default:
        return assertUnreachable(result);
    }
  }

  private stop(request: ViewerRequest, share: ViewedShare, stop: GateStop, at?: string): ViewerAnswer {
    const here = at ?? viewPath(share.ownerSegment, share.token);
    switch (stop.kind) {
      case 'refused':
        return this.refused(request, stop.outcome);
      case 'trashed':
        return this.message(request, 410, 'trashed');
      case 'quarantined':
        return this.message(request, 410, 'quarantined');
      case 'scanning':
        return { ...this.message(request, 503, 'scanning'), headers: { 'Retry-After': '5' } };
      case 'scan-failed':
        return { ...this.message(request, 503, 'scanFailed'), headers: { 'Retry-After': '60' } };
      case 'link-exists':
        return { status: 200, body: '' };
      case 'owner-disabled':
        return this.adminPage(request, 410, 'ownerDisabled');
      case 'share-disabled': {
        const context = this.context(request);
        const words = context.text.messages.reports.shareDisabled;
        return { status: 410, body: messagePage(context, words.title, words.body) };
      }
      case 'link-preview':
        return { status: 200, body: linkPreviewPage(this.context(request), publicFileName(share)) };
      case 'foreign-form':
        return this.message(request, 403, 'foreignForm');
      case 'sign-in':
        return this.loginRequired(request, here, null, 401);
      case 'unverified':
        return this.unverified(request, stop.user, here);
      case 'not-listed':
        return this.message(request, 403, 'notListed', { email: stop.email });
      case 'password':
        return { status: 401, body: passwordPage(this.context(request), here, share.fileName, stop.wrong) };
      case 'password-throttled':
        return this.throttled(request, stop.retryAfterSeconds, 'passwordThrottled');
      case 'agreement-throttled':
        return this.throttled(request, stop.retryAfterSeconds);
      case 'reveal':
        return { status: 200, body: revealPage(this.context(request), here, share.fileName, share.oneTime, share.burnAfterRead) };
      case 'agreement':
        return {
          status: stop.problem === null ? 200 : 400,
          body: agreementPage(this.context(request), {
            action: here,
            fileName: publicFileName(share),
            html: stop.html,
            requireName: stop.requireName,
            form: stop.form,
            problem: stop.problem,
            name: stop.name,
          }),
        };
      case 'agreement-forged':
        return this.message(request, 403, 'agreementForged');
      case 'back-to-link':
        return { status: 303, body: '', location: here };
      case 'unavailable':
        return this.message(request, 503, 'unavailable');
      default:
        return assertUnreachable(stop);
    }
  }

  refused(request: ViewerRequest, outcome: RefusedOutcome): ViewerAnswer {
    const context = this.context(request);
    const words = context.text.messages.refusals[outcome];
    return { status: REFUSAL_STATUS[outcome], body: messagePage(context, words.title, words.body) };
  }

  /** A sign-in of an account an administrator disabled. */
  accountDisabled(request: ViewerRequest): ViewerAnswer {
    return this.adminPage(request, 403, 'accountDisabled');
  }

  private adminPage(request: ViewerRequest, status: number, state: keyof ViewerMessages['admin']): ViewerAnswer {
    const context = this.context(request);
    const words = context.text.messages.admin[state];
    return { status, body: messagePage(context, words.title, words.body) };
  }

  /**
   * Sign-in happens on PUBLIC_URL (the console's origin). When the viewer runs there too, the page
   * also carries a sign-in form; on a separate render host the visitor bounces through PUBLIC_URL.
   */
  loginRequired(request: ViewerRequest, next: string, error: string | null, status: number): ViewerAnswer {
    const env = this.runtime.env;
    const context = this.context(request);
    const words = context.text.messages.signIn;
    if (request.origin !== this.publicOrigin) {
      const bounce = `${env.PUBLIC_URL}/s/_bounce?next=${encodeURIComponent(next)}`;
      return {
        status,
        body: messagePage(
          context,
          words.title,
          words.body,
          `<p><a href="${escapeHtml(bounce)}">${escapeHtml(words.bounce)}</a></p>`,
        ),
      };
    }
    // The console's sign-in page reads its return address from `redirect`; `next` is the name the viewer's own form uses.
    const back = encodeURIComponent(next);
    const consoleLogin = `${env.PUBLIC_URL}/login?redirect=${back}&next=${back}`;
    const sso = env.OIDC_ISSUER_URL
      ? { label: env.OIDC_BUTTON_LABEL ?? words.sso, href: `/api/auth/oidc/start?next=${back}` }
      : null;
    const extra = env.SMTP_URL ? emailCodeSection(context, next) : undefined;
    return {
      status,
      body: loginPage(context, consoleLogin, '/s/_login', next, error, { passwordForm: env.PASSWORD_LOGIN, sso, extra }),
    };
  }

  /**
   * An allowlisted link and a signed-in account whose address is not proven: a way to prove it
   * (an e-mail code, on PUBLIC_URL where the session lives; else single sign-on), or word that
   * this instance cannot.
   */
  unverified(request: ViewerRequest, user: AuthUser, here: string): ViewerAnswer {
    const env = this.runtime.env;
    const onPublic = request.origin === this.publicOrigin;
    // From a separate render host, the way back leads through the bounce that carries the sign-in over.
    const back = onPublic ? here : `/s/_bounce?next=${encodeURIComponent(here)}`;
    let offer: VerifyOffer;
    if (env.SMTP_URL) {
      offer = onPublic
        ? { kind: 'email-form', email: user.email, next: here }
        : { kind: 'email-link', href: `${env.PUBLIC_URL}${EMAIL_CODE_SEND}?mode=verify&next=${encodeURIComponent(back)}` };
    } else if (env.OIDC_ISSUER_URL) {
      offer = {
        kind: 'sso',
        label: env.OIDC_BUTTON_LABEL ?? new ViewerText(request.locale).messages.signIn.sso,
        href: `${env.PUBLIC_URL}/api/auth/oidc/start?next=${encodeURIComponent(back)}`,
      };
    } else {
      offer = { kind: 'none' };
    }
    return { status: 403, body: unverifiedPage(this.context(request), user.email, offer) };
  }
}

/** The owner's name in a link's address (`/s/<name>/…`); the viewer's own routes start with `_`. */
export function senderOf(path: string): string | null {
  const match = /^\/s\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\//.exec(path);
  return match ? match[1]! : null;
}
