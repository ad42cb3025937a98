import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SHARED_MESSAGES, apiErrorText } from '@sharedown/i18n';
import { isEmail } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import type { AuthUser } from '../auth/auth-context.js';
import { verifyPassword } from '../auth/accounts/password-hasher.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { maskedIpPrefix, throttleKeyOf } from '../common/client-address.js';
import { statusOf } from '../common/error-code.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { isInvisibleOnly } from '../common/text/text-rules.js';
import { FilesService } from '../files/files.service.js';
import { decodeDocument, readMultipartUpload, type UploadedDocument } from '../files/upload-reader.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ContentRenderer } from '../viewer/documents/content-renderer.js';
import { isLinkPreviewAgent } from '../viewer/visitor/link-preview-agents.js';
import type { CookieToSet, ViewerAnswer, ViewerRequest } from '../viewer/visitor/viewer-answer.js';
import { ViewerIdentity } from '../viewer/visitor/viewer-identity.js';
import { linkPreviewPage, passwordPage } from '../viewer/pages/viewer-pages.js';
import { ViewerPresenter } from '../viewer/pages/viewer-presenter.js';
import { REQUEST_LIMITS } from './request.dto.js';
import { receiptPage, requestEndedPage, requestPage, sizeText } from './request-pages.js';
import { requestText } from './request-text.js';
import { RequestsRepository, type PublicRequest } from './requests.repository.js';
import { requestPath } from './requests.service.js';
import { isMultipart } from '../http/multipart.js';

/** Upload attempts per client network (an IPv4 address, an IPv6 /64), over all requests. */
export const UPLOAD_ATTEMPTS = 120;
const UPLOAD_WINDOW_SECONDS = 10 * 60;
const PASSWORD_ATTEMPTS = 10;
const PASSWORD_WINDOW_SECONDS = 15 * 60;
const ACCESS_SECONDS = 12 * 3600;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;
const SEGMENT_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
const RECEIPT_SHAPE = /^[A-Za-z0-9_-]{32,64}$/;

type Ended = 'closed' | 'expired' | 'full';

function endedOf(request: PublicRequest): Ended | null {
  if (request.state === 'CLOSED' || !request.folderLive) return 'closed';
  if (request.state === 'EXPIRED') return 'expired';
  if (request.state === 'FULL') return 'full';
  return null;
}

function accessCookieName(requestId: string): string {
  return `sd_request_${requestId.replace(/-/g, '')}`;
}

/** What the uploader typed besides the document. */
interface UploaderWords {
  name: string;
  email: string;
  message: string;
  fileName: string;
}

/** A refusal of an upload, shown on the form again (HTML) or as the error envelope (JSON). */
class UploadRefusal {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly message: string,
  ) {}
}

/**
 * The public side of document requests, `/r/<segment>/<token>`: the page (GET and HEAD change
 * nothing), its password and allowlist steps (as share links have them), the upload, and the
 * uploader's receipt. An upload takes a slot atomically in the transaction that writes its file,
 * so a refused one (a full or closed request, a name, the quota) keeps nothing.
 */
@Injectable()
export class RequestPortalService {
  private readonly renderer = new ContentRenderer();

  constructor(
    private readonly db: DataSource,
    private readonly requests: RequestsRepository,
    private readonly files: FilesService,
    private readonly identity: ViewerIdentity,
    private readonly pages: ViewerPresenter,
    private readonly limiter: RateLimiter,
    private readonly audit: AuditLog,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  /** GET and HEAD: the form, or what stands before it. Nothing is written. */
  async page(request: ViewerRequest, segment: string, token: string): Promise<ViewerAnswer> {
    const found = await this.find(segment, token);
    if (!found) return this.pages.notFound(request);
    const context = this.pages.context(request);
    // A chat app's preview learns that the link exists, and nothing of the request or its files.
    if (request.method === 'HEAD' || isLinkPreviewAgent(request.userAgent)) {
      return { status: 200, body: linkPreviewPage(context, null) };
    }
    const ended = endedOf(found);
    if (ended) return { status: ended === 'full' ? 409 : 410, body: requestEndedPage(context, ended) };
    const gate = await this.gate(request, found);
    if ('answer' in gate) return gate.answer;
    return { status: 200, body: this.form(request, found, gate.user, null, null) };
  }

  /** POST: the password form (urlencoded), or an upload (multipart). */
  async post(request: ViewerRequest, raw: FastifyRequest, segment: string, token: string, json: boolean): Promise<ViewerAnswer> {
    const found = await this.find(segment, token);
    if (!found) return this.refuse(request, json, new UploadRefusal(404, ErrorCode.NOT_FOUND, '文档请求不存在'));
    if (!request.sameOrigin) return this.pages.message(request, 403, 'foreignForm');
    if (!isMultipart(raw)) {
      if (request.form.action === 'password' && found.hasPassword) return this.password(request, found);
      return this.refuse(request, json, new UploadRefusal(400, ErrorCode.VALIDATION, '请求必须是 multipart/form-data'), found);
    }
    const ended = endedOf(found);
    if (ended) return this.endedAnswer(request, json, ended);
    const gate = await this.gate(request, found);
    if ('answer' in gate) {
      // The form needs the password or a sign-in first: drain the body unread.
      raw.raw.resume();
      if (!json) return gate.answer;
      const unauthenticated = gate.answer.status === 401;
      return this.errorJson(
        unauthenticated
          ? new UploadRefusal(401, ErrorCode.UNAUTHENTICATED, '请先在页面上输入密码或登录')
          : new UploadRefusal(403, ErrorCode.FORBIDDEN, '该账户不能向这个文档请求上传'),
      );
    }
    const decision = await this.limiter.consume(
      `request-upload:${throttleKeyOf(request.ip)}`,
      UPLOAD_ATTEMPTS,
      UPLOAD_WINDOW_SECONDS,
    );
    if (!decision.allowed) {
      raw.raw.resume();
      if (json) {
        return {
          ...this.errorJson(
            new UploadRefusal(429, ErrorCode.RATE_LIMITED, `上传过于频繁，请 ${decision.retryAfterSeconds} 秒后重试`),
          ),
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        };
      }
      return this.pages.throttled(request, decision.retryAfterSeconds);
    }
    let typed: UploaderWords = { name: '', email: '', message: '', fileName: '' };
    try {
      const upload = await readMultipartUpload(raw, ['name', 'email', 'message', 'fileName', 'text']);
      typed = {
        name: (upload.fields.name ?? '').trim(),
        email: (gate.user?.email ?? upload.fields.email ?? '').trim(),
        message: (upload.fields.message ?? '').trim(),
        fileName: (upload.fields.fileName ?? '').trim(),
      };
      const document = this.documentOf(request, upload.document, upload.fields, typed.fileName, found.maxBytes);
      this.checkWords(request, typed, found);
      const receipt = randomBytes(24).toString('base64url');
      const uploadId = await this.store(found, document, typed, receipt, request.ip);
      const receiptPath = `${requestPath(found.ownerSegment, found.token)}/receipt/${receipt}`;
      if (json) {
        return {
          status: 200,
          body: JSON.stringify({
            upload: { id: uploadId, fileName: document.filename, sizeBytes: document.sizeBytes, scanStatus: 'PENDING' },
            receiptUrl: `${this.runtime.env.RENDER_URL}${receiptPath}`,
          }),
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
        };
      }
      return { status: 303, body: '', location: receiptPath };
    } catch (error) {
      const refusal = this.refusalOf(request, error);
      if (!refusal) throw error;
      if (refusal.status === 410) return this.endedAnswer(request, json, 'closed');
      return this.refuse(request, json, refusal, found, gate.user, typed);
    }
  }

  /** The uploader's receipt: their own upload only. Any other secret is not found. */
  async receipt(request: ViewerRequest, segment: string, token: string, secret: string): Promise<ViewerAnswer> {
    if (!RECEIPT_SHAPE.test(secret)) return this.pages.notFound(request);
    const found = await this.find(segment, token);
    const upload = found ? await this.requests.receipt(createHash('sha256').update(secret).digest('hex')) : null;
    if (!found || !upload || upload.requestId !== found.id) return this.pages.notFound(request);
    return {
      status: 200,
      body: receiptPage(this.pages.context(request), {
        requestTitle: upload.requestTitle,
        fileName: upload.fileName,
        sizeBytes: upload.sizeBytes,
        at: upload.createdAt,
        scanStatus: upload.scanStatus,
      }),
    };
  }

  private async find(segment: string, token: string): Promise<PublicRequest | null> {
    if (!SEGMENT_SHAPE.test(segment) || !TOKEN_SHAPE.test(token)) return null;
    const found = await this.requests.findPublic(segment, token);
    return found && !found.ownerDisabled ? found : null;
  }

  /** The password (once per browser, twelve hours, bound to the password in force) and the allowlist, as on share links. */
  private async gate(
    request: ViewerRequest,
    found: PublicRequest,
  ): Promise<{ user: AuthUser | null } | { answer: ViewerAnswer }> {
    const here = requestPath(found.ownerSegment, found.token);
    if (found.hasPassword && !this.hasAccess(request, found)) {
      return { answer: { status: 401, body: passwordPage(this.pages.context(request), here, found.title, false) } };
    }
    if (!found.emailAllowlist?.length) return { user: null };
    const user = await this.identity.user(request);
    if (!user) return { answer: this.pages.loginRequired(request, here, null, 401) };
    if (!user.emailVerified) return { answer: this.pages.unverified(request, user, here) };
    if (!found.emailAllowlist.includes(user.email.toLowerCase())) {
      return { answer: this.pages.message(request, 403, 'notListed', { email: user.email }) };
    }
    return { user };
  }

  private hasAccess(request: ViewerRequest, found: PublicRequest): boolean {
    const pass = this.identity.access.open<{ r?: unknown; p?: unknown }>(request.cookies[accessCookieName(found.id)]);
    return pass !== null && pass.r === found.id && pass.p === found.passwordTag;
  }

  private async password(request: ViewerRequest, found: PublicRequest): Promise<ViewerAnswer> {
    const here = requestPath(found.ownerSegment, found.token);
    const decision = await this.limiter.consume(
      `request-password:${found.id}:${throttleKeyOf(request.ip)}`,
      PASSWORD_ATTEMPTS,
      PASSWORD_WINDOW_SECONDS,
    );
    if (!decision.allowed) return this.pages.throttled(request, decision.retryAfterSeconds, 'passwordThrottled');
    const given = request.form.password ?? '';
    const hash = await this.requests.passwordHash(found.id);
    if (hash === null || given.length === 0 || given.length > 64 || !(await verifyPassword(hash, given))) {
      return { status: 401, body: passwordPage(this.pages.context(request), here, found.title, true) };
    }
    const cookie: CookieToSet = {
      name: accessCookieName(found.id),
      value: this.identity.access.seal({ r: found.id, p: found.passwordTag }, ACCESS_SECONDS),
      maxAge: ACCESS_SECONDS,
      path: here,
    };
    return { status: 303, body: '', location: here, cookies: [cookie] };
  }

  /** The uploaded file, or the pasted text under its file name; within the request's per-upload limit. */
  private documentOf(
    request: ViewerRequest,
    file: UploadedDocument | null,
    fields: Record<string, string>,
    fileName: string,
    maxBytes: number,
  ): UploadedDocument {
    const words = requestText(request.locale).problems;
    const pasted = fields.text ?? '';
    if (file && pasted) throw new UploadRefusal(400, ErrorCode.VALIDATION, words.both);
    const document = file ?? (pasted && fileName ? decodeDocument(fileName, Buffer.from(pasted, 'utf8')) : null);
    if (!document || (file && file.sizeBytes === 0 && !file.filename)) {
      throw new UploadRefusal(400, ErrorCode.VALIDATION, words.document);
    }
    if (document.sizeBytes > maxBytes) {
      throw new AppError(ErrorCode.OVER_QUOTA, `文件超过该请求的单个文件上限 ${sizeText('zh-CN', maxBytes)}`);
    }
    return document;
  }

  private checkWords(request: ViewerRequest, typed: UploaderWords, found: PublicRequest): void {
    const words = requestText(request.locale).problems;
    const { uploaderName, message } = REQUEST_LIMITS;
    if (
      !typed.name ||
      typed.name.length > uploaderName.max ||
      isInvisibleOnly(typed.name) ||
      /[\u0000-\u001f\u007f]/.test(typed.name)
    ) {
      throw new UploadRefusal(400, ErrorCode.VALIDATION, words.name);
    }
    const emailRequired = Boolean(found.emailAllowlist?.length);
    if ((typed.email || emailRequired) && !(typed.email.length <= 254 && isEmail(typed.email))) {
      throw new UploadRefusal(400, ErrorCode.VALIDATION, words.email);
    }
    if (typed.message.length > message.max) throw new UploadRefusal(400, ErrorCode.VALIDATION, words.message);
  }

  /**
   * Writes the file into the request's folder (numbered when its name is taken) and takes a slot,
   * in one transaction: a full or closed request, the owner's quota or the name rules undo both.
   */
  private async store(
    found: PublicRequest,
    document: UploadedDocument,
    typed: UploaderWords,
    receipt: string,
    ip: string,
  ): Promise<string> {
    const outcome = await this.files.upload(
      { id: found.ownerId },
      { document, folderId: found.folderId, conflict: 'rename', createdBy: null },
      async (manager, file) => {
        if (!(await this.requests.reserveSlot(manager, found.id))) throw await this.slotRefusal(found);
        const uploadId = await this.requests.insertUpload(manager, {
          requestId: found.id,
          fileId: file.id,
          fileName: file.name,
          sizeBytes: document.sizeBytes,
          uploaderName: typed.name,
          uploaderEmail: typed.email || null,
          message: typed.message,
          receiptHash: createHash('sha256').update(receipt).digest('hex'),
          ipPrefix: maskedIpPrefix(ip),
        });
        await this.audit.within(manager, {
          userId: found.ownerId,
          action: AuditAction.requestUploadReceived,
          targetId: uploadId,
          details: { requestId: found.id, fileId: file.id, fileName: file.name },
          ipPrefix: maskedIpPrefix(ip),
        });
        return uploadId;
      },
    );
    return outcome.extra;
  }

  /** Why no slot was left: closed or expired meanwhile (410), else full (409). */
  private async slotRefusal(found: PublicRequest): Promise<UploadRefusal> {
    const now = await this.requests.findPublic(found.ownerSegment, found.token);
    if (!now || now.state === 'CLOSED' || now.state === 'EXPIRED')
      return new UploadRefusal(410, ErrorCode.CONFLICT, '文档请求已关闭或已过期');
    return new UploadRefusal(409, ErrorCode.CONFLICT, '文档请求已收满，不再接收上传');
  }

  private refusalOf(request: ViewerRequest, error: unknown): UploadRefusal | null {
    if (error instanceof UploadRefusal) return error;
    if (!(error instanceof AppError)) return null;
    const status = statusOf(error.code);
    if (status >= 500) return null;
    // The folder went to the trash while the upload ran: the request takes nothing more.
    if (error.code === ErrorCode.NOT_FOUND) return new UploadRefusal(410, ErrorCode.CONFLICT, '文档请求已关闭');
    const message = request.locale === 'zh-CN' ? error.message : apiErrorText(SHARED_MESSAGES[request.locale], error);
    return new UploadRefusal(status, error.code, message);
  }

  private endedAnswer(request: ViewerRequest, json: boolean, ended: Ended): ViewerAnswer {
    const status = ended === 'full' ? 409 : 410;
    if (json) {
      const message =
        ended === 'full' ? '文档请求已收满，不再接收上传' : ended === 'expired' ? '文档请求已过期' : '文档请求已关闭';
      return this.errorJson(new UploadRefusal(status, ErrorCode.CONFLICT, message));
    }
    return { status, body: requestEndedPage(this.pages.context(request), ended) };
  }

  private refuse(
    request: ViewerRequest,
    json: boolean,
    refusal: UploadRefusal,
    found?: PublicRequest,
    user: AuthUser | null = null,
    typed: UploaderWords | null = null,
  ): ViewerAnswer {
    if (json) return this.errorJson(refusal);
    if (!found) return this.pages.notFound(request);
    return { status: refusal.status, body: this.form(request, found, user, refusal.message, typed) };
  }

  private errorJson(refusal: UploadRefusal): ViewerAnswer {
    return {
      status: refusal.status,
      body: JSON.stringify({ error: refusal.message, code: refusal.code }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    };
  }

  private form(
    request: ViewerRequest,
    found: PublicRequest,
    user: AuthUser | null,
    problem: string | null,
    typed: UploaderWords | null,
  ): string {
    return requestPage(this.pages.context(request), {
      action: requestPath(found.ownerSegment, found.token),
      title: found.title,
      owner: found.ownerSegment,
      instructionsHtml: found.instructions ? this.renderer.renderMarkdown(found.instructions) : '',
      taken: found.uploadCount,
      max: found.maxUploads,
      maxBytes: found.maxBytes,
      expiresAt: found.expiresAt,
      fixedEmail: user?.email ?? null,
      problem,
      typed: typed ?? { name: '', email: '', message: '', fileName: '' },
    });
  }
}
