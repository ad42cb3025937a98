import { Controller, Get, Inject, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKeyOf } from '../common/client-address.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import type { ViewerAnswer, ViewerRequest } from './viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { ViewerFormsService } from './viewer-forms.service.js';
import { ViewerService } from './viewer.service.js';

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; media-src 'self' data: https: http:; " +
  "font-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The share viewer: `/s/<ownerSegment>/<tokenOrSlug>`, the legacy `/s/<tokenOrSlug>`, and what
 * they need (report form, sign-in, sandboxed frame, static assets). Every answer is HTML with
 * strict security headers, never the JSON envelope.
 */
@ApiTags('viewer')
@Controller('s')
export class ViewerController {
  private readonly logger = new Logger('Viewer');
  private readonly publicOrigin: string;
  private readonly renderOrigin: string;

  constructor(
    private readonly viewer: ViewerService,
    private readonly forms: ViewerFormsService,
    private readonly assets: ViewerAssets,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {
    this.publicOrigin = new URL(runtime.env.PUBLIC_URL).origin;
    this.renderOrigin = new URL(runtime.env.RENDER_URL).origin;
  }

  @Get('_assets/:name')
  @ApiExcludeEndpoint()
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = this.assets.get(name);
    reply
      .header('Content-Security-Policy', "default-src 'none'")
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Robots-Tag', 'noindex, nofollow')
      .header('Cross-Origin-Resource-Policy', 'same-origin');
    if (!asset) {
      reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').send('not found');
      return;
    }
    reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('Content-Type', asset.contentType).send(asset.body);
  }

  /** The author's HTML, for the sandboxed frame of an admitted view only. Opaque origin even when opened directly. */
  @Get('_render/:ticket')
  @ApiExcludeEndpoint()
  async render(@Param('ticket') ticket: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const frame = await this.viewer.frame(ticket);
    if (!frame) {
      this.send(request, reply, this.viewer.message(410, '链接已失效', '这个页面只能从分享链接中打开，请重新打开分享链接。'));
      return;
    }
    reply
      .status(200)
      .header('Content-Security-Policy', `sandbox allow-scripts allow-popups; frame-ancestors 'self' ${this.originOf(request)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Robots-Tag', 'noindex, nofollow, noarchive')
      .header('Cache-Control', 'no-store')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Content-Type', 'text/html; charset=utf-8')
      .send(frame);
  }

  @Get('_login')
  @ApiExcludeEndpoint()
  loginForm(@Query('next') next: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.send(request, reply, this.forms.loginForm(this.toViewerRequest(request), next));
  }

  @Post('_login')
  @ApiExcludeEndpoint()
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(request, reply, () => this.forms.login(this.toViewerRequest(request)));
  }

  @Get('_bounce')
  @ApiExcludeEndpoint()
  async bounce(@Query('next') next: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(request, reply, () => this.forms.bounce(this.toViewerRequest(request), next));
  }

  @Get('_bounce/return')
  @ApiExcludeEndpoint()
  bounceReturn(@Query('ticket') ticket: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.send(request, reply, this.forms.bounceReturn(ticket));
  }

  @Get(':segment/:token/report')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'report form (HTML)' })
  async reportForm(@Param('segment') segment: string, @Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.forms.report(this.toViewerRequest(request), segment, token));
  }

  @Post(':segment/:token/report')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'report recorded (HTML); form field `reason`' })
  async report(@Param('segment') segment: string, @Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.forms.report(this.toViewerRequest(request), segment, token));
  }

  @Get(':segment/:token')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the shared document, or the page its policies call for (password, sign-in, reveal, 404, 410)' })
  async view(@Param('segment') segment: string, @Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.viewer.view(this.toViewerRequest(request), segment, token));
  }

  @Post(':segment/:token')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'password (`action=password`, `password`) or reveal (`action=reveal`) form submission' })
  async submit(@Param('segment') segment: string, @Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.viewer.view(this.toViewerRequest(request), segment, token));
  }

  @Get(':token')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'legacy link form /s/<tokenOrSlug>' })
  async legacyView(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.viewer.view(this.toViewerRequest(request), null, token));
  }

  @Post(':token')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'form submission on the legacy link form' })
  async legacySubmit(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.answer(request, reply, () => this.viewer.view(this.toViewerRequest(request), null, token));
  }

  private async answer(request: FastifyRequest, reply: FastifyReply, produce: () => Promise<ViewerAnswer>): Promise<void> {
    if (this.renderOrigin !== this.publicOrigin && this.originOf(request) === this.publicOrigin && !request.url.startsWith('/s/_')) {
      // Documents are only ever shown on the render origin, where the visitor cookie lives.
      this.send(request, reply, { status: 302, body: '', location: `${this.runtime.env.RENDER_URL}${request.url}` });
      return;
    }
    let result: ViewerAnswer;
    try {
      result = await produce();
    } catch (error) {
      this.logger.error(`${request.method} ${request.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      result = this.viewer.message(500, '出错了', '服务器暂时无法处理这个请求，请稍后再试。');
    }
    this.send(request, reply, result);
    if (result.after) {
      result.after().catch((error: unknown) => this.logger.warn(`after-view task failed: ${String(error)}`));
    }
  }

  private send(request: FastifyRequest, reply: FastifyReply, answer: ViewerAnswer): void {
    const secure = this.runtime.env.RENDER_URL.startsWith('https:');
    for (const cookie of answer.cookies ?? []) {
      reply.setCookie(cookie.name, cookie.value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: cookie.name === 'sharedown_session' ? this.runtime.env.PUBLIC_URL.startsWith('https:') : secure,
        path: cookie.path ?? '/s/',
        ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}),
      });
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
    if (answer.location) reply.header('Location', answer.location);
    reply
      .status(answer.status)
      .header('Content-Security-Policy', PAGE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .header('X-Robots-Tag', 'noindex, nofollow, noarchive')
      .header('X-Frame-Options', 'DENY')
      .header('Cache-Control', 'no-store')
      .header('Content-Type', 'text/html; charset=utf-8')
      .send(request.method === 'HEAD' ? '' : answer.body);
  }

  private originOf(request: FastifyRequest): string {
    return `${request.protocol}://${request.host}`;
  }

  private toViewerRequest(request: FastifyRequest): ViewerRequest {
    const origin = this.originOf(request);
    const claimed = request.headers.origin;
    const form: Record<string, string> = {};
    if (request.method === 'POST' && request.body && typeof request.body === 'object') {
      for (const [key, value] of Object.entries(request.body as Record<string, unknown>)) {
        const first = Array.isArray(value) ? value[0] : value;
        if (typeof first === 'string') form[key] = first;
      }
    }
    const referer = request.headers.referer;
    return {
      method: request.method,
      path: request.url,
      cookies: request.cookies ?? {},
      userAgent: request.headers['user-agent'],
      ip: clientKeyOf(request),
      referer: typeof referer === 'string' ? referer.slice(0, 2048) : undefined,
      form,
      sameOrigin: claimed === undefined || claimed === origin || claimed === this.publicOrigin || claimed === this.renderOrigin,
      origin,
    };
  }
}
