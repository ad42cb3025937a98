import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-context.js';
import { escapeHtml } from '../common/html.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { viewPath } from '../shares/share-row.js';
import { EMAIL_CODE_SEND, emailCodeSection, unverifiedPage, type VerifyOffer } from './email-code-pages.js';
import type { GateStop, RefusedOutcome } from './gate-stop.js';
import type { ViewedShare } from './share-view.repository.js';
import type { ViewerAnswer, ViewerRequest } from './viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { documentPage, linkPreviewPage, loginPage, messagePage, passwordPage, revealPage } from './viewer-pages.js';
import type { ViewResult } from './view-result.js';

const REFUSALS: Record<RefusedOutcome, { status: number; title: string; message: string }> = {
  NOT_FOUND: { status: 404, title: '链接不存在', message: '这个分享链接不存在，请检查地址是否完整。' },
  REVOKED: { status: 410, title: '链接已撤销', message: '分享者已撤销这个链接，内容不再提供。' },
  EXPIRED: { status: 410, title: '链接已过期', message: '这个分享链接已过有效期，内容不再提供。' },
  CONSUMED: { status: 410, title: '链接已失效', message: '这个链接的访问次数已用完，内容不再提供。' },
  SESSION_TAKEN: { status: 403, title: '无法访问', message: '这个链接只能在最先打开它的浏览器会话中查看。' },
  VISITOR_LIMIT: { status: 410, title: '访问次数已用完', message: '你对这个链接的访问次数已用完。' },
  USER_LIMIT: { status: 410, title: '访问次数已用完', message: '你的账号对这个链接的访问次数已用完。' },
};

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

  message(status: number, title: string, message: string, extra = ''): ViewerAnswer {
    return { status, body: messagePage(this.assets.urls, title, message, extra) };
  }

  notFound(): ViewerAnswer {
    return this.refusal('NOT_FOUND');
  }

  /** A share view: the document of an admitted visit, or the page of the policy that stopped it. */
  view(request: ViewerRequest, result: ViewResult): ViewerAnswer {
    switch (result.kind) {
      case 'not-found':
        return this.notFound();
      case 'stopped':
        return { ...this.stop(request, result.share, result.stop), cookies: result.cookies };
      case 'shown': {
        const { share, content, watermark, frameUrl } = result;
        const body = documentPage({
          assets: this.assets.urls,
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
        });
        return { status: 200, body, cookies: result.cookies, after: result.after };
      }
      default:
        return assertUnreachable(result);
    }
  }

  private stop(request: ViewerRequest, share: ViewedShare, stop: GateStop): ViewerAnswer {
    const here = viewPath(share.ownerSegment, share.token);
    switch (stop.kind) {
      case 'refused':
        return this.refusal(stop.outcome);
      case 'trashed':
        return this.message(410, '文档已删除', '分享者已删除这份文档，内容不再提供。');
      case 'quarantined':
        return this.message(410, '文档已被隔离', '杀毒扫描判定这份文档不安全，内容不再提供。');
      case 'scanning':
        return {
          ...this.message(503, '正在进行安全扫描', '这份文档刚刚上传，正在进行安全扫描，请稍后刷新页面。'),
          headers: { 'Retry-After': '5' },
        };
      case 'scan-failed':
        return {
          ...this.message(503, '安全扫描暂时失败', '这份文档的安全扫描暂时没有完成，系统会自动重试，请稍后再来。'),
          headers: { 'Retry-After': '60' },
        };
      case 'link-exists':
        return { status: 200, body: '' };
      case 'link-preview':
        return { status: 200, body: linkPreviewPage(this.assets.urls, share.fileName) };
      case 'foreign-form':
        return this.message(403, '请求被拒绝', '表单必须从本站页面提交。');
      case 'sign-in':
        return this.loginRequired(request, here, null, 401);
      case 'unverified':
        return this.unverified(request, stop.user, here);
      case 'not-listed':
        return this.message(403, '无权访问', `当前登录的账号（${stop.email}）不在此链接的访问名单中。`);
      case 'password':
        return { status: 401, body: passwordPage(this.assets.urls, here, share.fileName, stop.wrong ? '密码不正确。' : null) };
      case 'password-throttled':
        return {
          ...this.message(429, '尝试次数过多', `密码尝试次数过多，请 ${Math.ceil(stop.retryAfterSeconds / 60)} 分钟后再试。`),
          headers: { 'Retry-After': String(stop.retryAfterSeconds) },
        };
      case 'reveal':
        return { status: 200, body: revealPage(this.assets.urls, here, share.fileName, share.oneTime, share.burnAfterRead) };
      case 'back-to-link':
        return { status: 303, body: '', location: here };
      case 'unavailable':
        return this.message(503, '暂时无法显示', '文档正在重新检查，请稍后再试。');
      default:
        return assertUnreachable(stop);
    }
  }

  private refusal(outcome: RefusedOutcome): ViewerAnswer {
    const { status, title, message } = REFUSALS[outcome];
    return this.message(status, title, message);
  }

  /**
   * Sign-in happens on PUBLIC_URL (the console's origin). When the viewer runs there too, the page
   * also carries a sign-in form; on a separate render host the visitor bounces through PUBLIC_URL.
   */
  loginRequired(request: ViewerRequest, next: string, error: string | null, status: number): ViewerAnswer {
    const env = this.runtime.env;
    if (request.origin !== this.publicOrigin) {
      const bounce = `${env.PUBLIC_URL}/s/_bounce?next=${encodeURIComponent(next)}`;
      return this.message(
        status,
        '需要登录',
        '此链接仅对已登录的用户开放，请先登录。',
        `<p><a href="${escapeHtml(bounce)}">登录后查看</a></p>`,
      );
    }
    // The console's sign-in page reads its return address from `redirect`; `next` is the name the viewer's own form uses.
    const back = encodeURIComponent(next);
    const consoleLogin = `${env.PUBLIC_URL}/login?redirect=${back}&next=${back}`;
    const sso = env.OIDC_ISSUER_URL
      ? { label: env.OIDC_BUTTON_LABEL ?? '单点登录', href: `/api/auth/oidc/start?next=${back}` }
      : null;
    const extra = env.SMTP_URL ? emailCodeSection(next) : undefined;
    return {
      status,
      body: loginPage(this.assets.urls, consoleLogin, '/s/_login', next, error, { passwordForm: env.PASSWORD_LOGIN, sso, extra }),
    };
  }

  /**
   * An allowlisted link and a signed-in account whose address is not proven: a way to prove it
   * (an e-mail code, on PUBLIC_URL where the session lives; else single sign-on), or word that
   * this instance cannot.
   */
  private unverified(request: ViewerRequest, user: AuthUser, here: string): ViewerAnswer {
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
        label: env.OIDC_BUTTON_LABEL ?? '单点登录',
        href: `${env.PUBLIC_URL}/api/auth/oidc/start?next=${encodeURIComponent(back)}`,
      };
    } else {
      offer = { kind: 'none' };
    }
    return { status: 403, body: unverifiedPage(this.assets.urls, user.email, offer) };
  }
}
