import { Inject, Injectable } from '@nestjs/common';
import { verifyPassword } from '../auth/password-hasher.js';
import type { AuthUser } from '../auth/auth-context.js';
import { SESSION_COOKIE } from '../auth/sessions.service.js';
import { maskedIpPrefix } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { viewPath } from '../shares/share-row.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { DocumentCache } from './document-cache.js';
import { frameDocument } from './frame-document.js';
import { FrameTickets, type FrameWatermarkViewer } from './frame-tickets.js';
import { isLinkPreviewAgent } from './link-preview-agents.js';
import { ShareViewRepository, type Admission, type AdmissionOutcome, type ViewedShare } from './share-view.repository.js';
import type { CookieToSet, ViewerAnswer, ViewerRequest } from './viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { VISITOR_COOKIE, ViewerIdentity } from './viewer-identity.js';
import { VisitAdmissions } from './visit-admissions.js';
import { escapeHtml } from '../common/html.js';
import { documentPage, messagePage, passwordPage, revealPage, loginPage } from './viewer-pages.js';
import { EMAIL_CODE_SEND, emailCodeSection, unverifiedPage, type VerifyOffer } from './email-code-pages.js';

// Password attempts per share and client address.
const PASSWORD_ATTEMPTS = 10;
const PASSWORD_WINDOW_SECONDS = 15 * 60;

// Tokens and slugs are URL-safe base64 characters; owner segments lower-case letters, digits, _ and -.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;
const SEGMENT_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Anything else cannot be a link, and never reaches the database. */
function linkShaped(segment: string | null, token: string): boolean {
  return TOKEN_SHAPE.test(token) && (segment === null || SEGMENT_SHAPE.test(segment));
}

const REFUSALS: Record<Exclude<AdmissionOutcome, 'ADMITTED'>, { status: number; title: string; message: string }> = {
  NOT_FOUND: { status: 404, title: '链接不存在', message: '这个分享链接不存在，请检查地址是否完整。' },
  REVOKED: { status: 410, title: '链接已撤销', message: '分享者已撤销这个链接，内容不再提供。' },
  EXPIRED: { status: 410, title: '链接已过期', message: '这个分享链接已过有效期，内容不再提供。' },
  CONSUMED: { status: 410, title: '链接已失效', message: '这个链接的访问次数已用完，内容不再提供。' },
  SESSION_TAKEN: { status: 403, title: '无法访问', message: '这个链接只能在最先打开它的浏览器会话中查看。' },
  VISITOR_LIMIT: { status: 410, title: '访问次数已用完', message: '你对这个链接的访问次数已用完。' },
  USER_LIMIT: { status: 410, title: '访问次数已用完', message: '你的账号对这个链接的访问次数已用完。' },
};

/** What the page's watermark says, and who it named (for the frame's copy of it). */
interface Watermark {
  text: string;
  viewer: FrameWatermarkViewer | null;
}

/** `YYYY-MM-DD HH:MM` (UTC) of a minute counted from the epoch. */
function minuteText(minute: number): string {
  return new Date(minute * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The gate in front of every shared document. Order: existence and state, scan status, preview
 * agents, sign-in and allowlist, one-session, password, reveal step; only then the visit is
 * admitted (atomically, in PostgreSQL) and the page is sent. Nothing of the document leaves
 * before admission.
 */
@Injectable()
export class ViewerService {
  private readonly frameTickets: FrameTickets;

  constructor(
    private readonly repository: ShareViewRepository,
    private readonly documents: DocumentCache,
    private readonly admissions: VisitAdmissions,
    private readonly identity: ViewerIdentity,
    private readonly assets: ViewerAssets,
    private readonly limiter: RateLimiter,
    private readonly events: WebhookEventsService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.frameTickets = new FrameTickets(identity.frames);
  }

  message(status: number, title: string, message: string, extra = ''): ViewerAnswer {
    return { status, body: messagePage(this.assets.urls, title, message, extra) };
  }

  notFound(): ViewerAnswer {
    return this.refusal('NOT_FOUND');
  }

  private refusal(outcome: Exclude<AdmissionOutcome, 'ADMITTED'>): ViewerAnswer {
    const { status, title, message } = REFUSALS[outcome];
    return this.message(status, title, message);
  }

  /** The share behind `/s/<segment>/<token>` or `/s/<token>`; a segment that is not the owner's finds nothing. */
  async find(segment: string | null, token: string): Promise<ViewedShare | null> {
    if (!linkShaped(segment, token)) return null;
    const share = await this.repository.load(token);
    if (!share) return null;
    if (segment !== null && share.ownerSegment.toLowerCase() !== segment.toLowerCase()) return null;
    return share;
  }

  async view(request: ViewerRequest, segment: string | null, token: string): Promise<ViewerAnswer> {
    if (!linkShaped(segment, token)) return this.notFound();
    // A browser's GET: read the gate and, for a share that asks nothing of the visitor, admit the
    // visit in the same round trip. Everything else reads the gate alone.
    const visitor = this.identity.visitorKey(request);
    const browsing = request.method === 'GET' && !isLinkPreviewAgent(request.userAgent);
    const opened = browsing ? await this.admissions.open(segment, token, visitor.key) : null;
    const share = browsing ? (opened?.share ?? null) : await this.find(segment, token);
    if (!share) return this.notFound();
    if (opened?.admission) {
      const cookies = visitor.cookie ? [visitor.cookie] : [];
      if (opened.admission.outcome !== 'ADMITTED') return { ...this.refusal(opened.admission.outcome), cookies };
      return this.render(request, share, opened.admission, cookies, null, visitor.key);
    }
    const unavailable = this.unavailable(share);
    if (unavailable) return unavailable;
    // HEAD and link previews learn that the link exists, nothing more, and never use up a visit.
    if (request.method === 'HEAD') return { status: 200, body: '' };
    if (isLinkPreviewAgent(request.userAgent)) {
      return this.message(200, '共享文档', '这是一个共享文档链接，请在浏览器中打开查看。');
    }
    if (request.method === 'POST' && !request.sameOrigin) return this.message(403, '请求被拒绝', '表单必须从本站页面提交。');

    const here = viewPath(share.ownerSegment, share.token);
    let user: AuthUser | null = null;
    if (share.requireLogin) {
      user = await this.identity.user(request);
      if (!user) return this.loginRequired(request, here, null, 401);
      if (share.emailAllowlist) {
        // Anyone can register any address: only a proven one counts, and an unproven visitor is
        // told so before (and whatever) the list says, so the page reveals nothing about it.
        if (!user.emailVerified) return this.unverified(request, user, here);
        if (!share.emailAllowlist.includes(user.email.toLowerCase())) {
          return this.message(403, '无权访问', `当前登录的账号（${user.email}）不在此链接的访问名单中。`);
        }
      }
    }
    const cookies: CookieToSet[] = [];
    let browserKey: string | null = null;
    if (share.oneSession) {
      const browser = this.identity.browserKey(request);
      browserKey = browser.key;
      if (browser.cookie) cookies.push(browser.cookie);
      if (share.sessionOwner !== null && share.sessionOwner !== browserKey) return this.refusal('SESSION_TAKEN');
    }

    const action = request.method === 'POST' ? request.form.action : undefined;
    const revealStep = share.oneTime || share.burnAfterRead;
    let deliberate = action === 'reveal';
    if (share.hasPassword && !this.identity.hasAccess(request, share.id)) {
      if (action !== 'password') return { status: 401, body: passwordPage(this.assets.urls, here, share.fileName, null), cookies };
      const checked = await this.checkPassword(request, share);
      if (checked) return { ...checked, cookies: [...cookies, ...(checked.cookies ?? [])] };
      cookies.push(this.identity.accessCookie(share.id));
      // Typing the password is a deliberate act, like the reveal click; other links go back to GET.
      if (!revealStep) return { status: 303, body: '', location: here, cookies };
      deliberate = true;
    }
    if (revealStep && !deliberate) {
      return { status: 200, body: revealPage(this.assets.urls, here, share.fileName, share.oneTime, share.burnAfterRead), cookies };
    }
    if (request.method === 'POST' && !revealStep) return { status: 303, body: '', location: here, cookies };

    // Content first: a visit is never counted for a page that then cannot be shown.
    if ((await this.documents.get(share.versionId!, share.fileKind)) === null) {
      return this.message(503, '暂时无法显示', '文档正在重新检查，请稍后再试。');
    }
    if (visitor.cookie) cookies.push(visitor.cookie);
    const admission = await this.admissions.admit(share.id, { visitorKey: visitor.key, userId: user?.id ?? null, browserKey });
    if (admission.outcome !== 'ADMITTED') return { ...this.refusal(admission.outcome), cookies };
    return this.render(request, share, admission, cookies, user, visitor.key);
  }

  /** The page of an admitted visit, and its share_visited event once the page is on its way. */
  private async render(
    request: ViewerRequest,
    share: ViewedShare,
    admission: Admission,
    cookies: CookieToSet[],
    user: AuthUser | null,
    visitorKey: string,
  ): Promise<ViewerAnswer> {
    // Cached after the first view of a version; a CLEAN version's rendering only fails on a database error.
    const content = await this.documents.get(share.versionId!, share.fileKind);
    if (content === null) return this.message(503, '暂时无法显示', '文档正在重新检查，请稍后再试。');
    const here = viewPath(share.ownerSegment, share.token);
    const watermark = share.watermarkEnabled ? await this.watermark(share, user, request) : null;
    const body = documentPage({
      assets: this.assets.urls,
      fileName: share.fileName,
      shareId: share.id,
      versionId: share.versionId!,
      reportUrl: `${here}/report`,
      inlineHtml: share.fileKind === 'HTML' ? null : content.bytes,
      frameUrl: share.fileKind === 'HTML' ? this.frameUrl(share, visitorKey, watermark) : null,
      watermark: watermark?.text ?? null,
      copyProtection: share.copyProtection,
      burnAfterRead: share.burnAfterRead,
    });
    const data = {
      shareId: share.id,
      token: share.token,
      fileId: share.fileId,
      fileName: share.fileName,
      fileKind: share.fileKind,
      visitCount: admission.visitCount,
      uniqueVisitCount: admission.uniqueVisitCount,
      ipPrefix: maskedIpPrefix(request.ip),
      referer: request.referer ?? '',
    };
    return { status: 200, body, cookies, after: () => this.events.emit(share.ownerId, 'share_visited', data) };
  }

  /**
   * The author's HTML for the sandboxed frame of an admitted view, or null (the 410 page). The
   * ticket must be authentic and fresh, the request must carry the visitor cookie of the visit
   * that minted it, the share must still show its document (not revoked, trashed, purged,
   * expired or quarantined, the version still CLEAN), and the ticket must not have been used
   * before. A HEAD request learns whether the ticket is good for this visitor, and uses nothing.
   */
  async frame(request: ViewerRequest, sealed: string): Promise<{ body: Buffer } | null> {
    const ticket = this.frameTickets.open(sealed);
    if (!ticket) return null;
    const visitorKey = this.identity.visitors.verify(request.cookies[VISITOR_COOKIE]);
    if (visitorKey === null || this.frameTickets.visitorDigest(visitorKey) !== ticket.visitor) return null;
    if (request.method !== 'GET') return { body: Buffer.alloc(0) };
    const viewer = ticket.watermark?.viewer ?? null;
    const admitted = await this.repository.useFrameTicket({
      id: ticket.id,
      shareId: ticket.shareId,
      versionId: ticket.versionId,
      expiresAt: ticket.expiresAt,
      userId: viewer?.userId ?? null,
    });
    if (!admitted) return null;
    const content = await this.documents.get(ticket.versionId, 'HTML');
    if (content === null) return null;
    // The page's text; a watermark switched on since the page was served names the address.
    let watermark: string | null = null;
    if (ticket.watermark || admitted.watermarkEnabled) {
      const who = admitted.email ?? viewer?.address ?? maskedIpPrefix(request.ip);
      watermark = admitted.watermarkText ?? `${who} · ${minuteText(viewer?.minute ?? Math.floor(Date.now() / 60_000))} UTC`;
    }
    return { body: frameDocument(content.bytes, content.doctypeLength, ticket.copyProtection, watermark) };
  }

  /**
   * Sign-in happens on PUBLIC_URL (the console's origin). When the viewer runs there too, the page
   * also carries a sign-in form; on a separate render host the visitor bounces through PUBLIC_URL.
   */
  loginRequired(request: ViewerRequest, next: string, error: string | null, status: number): ViewerAnswer {
    const publicUrl = this.runtime.env.PUBLIC_URL;
    if (request.origin !== new URL(publicUrl).origin) {
      const bounce = `${publicUrl}/s/_bounce?next=${encodeURIComponent(next)}`;
      return this.message(status, '需要登录', '此链接仅对已登录的用户开放，请先登录。', `<p><a href="${escapeHtml(bounce)}">登录后查看</a></p>`);
    }
    // The console's sign-in page reads its return address from `redirect`; `next` is the name the viewer's own form uses.
    const back = encodeURIComponent(next);
    const consoleLogin = `${publicUrl}/login?redirect=${back}&next=${back}`;
    const env = this.runtime.env;
    const sso = env.OIDC_ISSUER_URL ? { label: env.OIDC_BUTTON_LABEL ?? '单点登录', href: `/api/auth/oidc/start?next=${back}` } : null;
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
    const onPublic = request.origin === new URL(env.PUBLIC_URL).origin;
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

  /** A state that keeps the document from anyone, before any policy is looked at. */
  private unavailable(share: ViewedShare): ViewerAnswer | null {
    if (share.revoked) return this.refusal('REVOKED');
    if (share.trashed) return this.message(410, '文档已删除', '分享者已删除这份文档，内容不再提供。');
    if (share.expired) return this.refusal('EXPIRED');
    if (share.consumed) return this.refusal('CONSUMED');
    switch (share.scanStatus) {
      case 'CLEAN':
        return null;
      case 'INFECTED':
        return this.message(410, '文档已被隔离', '杀毒扫描判定这份文档不安全，内容不再提供。');
      case 'PENDING':
        return {
          ...this.message(503, '正在进行安全扫描', '这份文档刚刚上传，正在进行安全扫描，请稍后刷新页面。'),
          headers: { 'Retry-After': '5' },
        };
      default:
        return {
          ...this.message(503, '安全扫描暂时失败', '这份文档的安全扫描暂时没有完成，系统会自动重试，请稍后再来。'),
          headers: { 'Retry-After': '60' },
        };
    }
  }

  private async checkPassword(request: ViewerRequest, share: ViewedShare): Promise<ViewerAnswer | null> {
    const here = viewPath(share.ownerSegment, share.token);
    const decision = await this.limiter.consume(`share-password:${share.id}:${request.ip}`, PASSWORD_ATTEMPTS, PASSWORD_WINDOW_SECONDS);
    if (!decision.allowed) {
      return {
        ...this.message(429, '尝试次数过多', `密码尝试次数过多，请 ${Math.ceil(decision.retryAfterSeconds / 60)} 分钟后再试。`),
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      };
    }
    const given = request.form.password ?? '';
    const hash = await this.repository.passwordHash(share.id);
    if (hash === null || given.length === 0 || given.length > 64 || !(await verifyPassword(hash, given))) {
      return { status: 401, body: passwordPage(this.assets.urls, here, share.fileName, '密码不正确。') };
    }
    return null;
  }

  /** The frame of this view: a ticket for this share, version and visitor, good once. */
  private frameUrl(share: ViewedShare, visitorKey: string, watermark: Watermark | null): string {
    const ticket = this.frameTickets.mint({
      shareId: share.id,
      versionId: share.versionId!,
      visitorKey,
      copyProtection: share.copyProtection,
      watermark: watermark ? { viewer: watermark.viewer } : null,
    });
    return `/s/_render/${ticket}`;
  }

  /** The share's text, else who is looking and when: the signed-in e-mail or the masked address. */
  private async watermark(share: ViewedShare, user: AuthUser | null, request: ViewerRequest): Promise<Watermark> {
    if (share.watermarkText) return { text: share.watermarkText, viewer: null };
    const signedIn = user ?? (request.cookies[SESSION_COOKIE] ? await this.identity.user(request) : null);
    // An address nobody proved names nobody: such a visitor is marked like an anonymous one.
    const viewer = signedIn?.emailVerified ? signedIn : null;
    const minute = Math.floor(Date.now() / 60_000);
    const address = maskedIpPrefix(request.ip);
    return {
      text: `${viewer?.email ?? address} · ${minuteText(minute)} UTC`,
      viewer: { userId: viewer?.id ?? null, address: viewer ? null : address, minute },
    };
  }
}
