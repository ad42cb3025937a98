import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Metrics } from '../metrics/metrics.js';
import { PublicRoute } from '../openapi/public-route.decorator.js';
import { CollectionViewService } from './collection-view.service.js';
import { viewOutcomeOf } from './view-outcome.js';
import { ViewerAssets } from './pages/viewer-assets.js';
import { ViewerEmailCodeService } from './viewer-email-code.service.js';
import { ViewerFormsService } from './viewer-forms.service.js';
import { ViewerHttp } from './viewer-http.js';
import { ViewerPresenter } from './pages/viewer-presenter.js';
import { ApiViewerResponses } from './viewer-responses.decorator.js';
import { ViewerService } from './viewer.service.js';
import { VisitEngagement } from './visit-log/visit-engagement.js';

/**
 * The share viewer: `/s/<ownerSegment>/<tokenOrSlug>`, the legacy `/s/<tokenOrSlug>`, and what
 * they need (report form, sign-in, sandboxed frame, static assets). Every answer is HTML with
 * strict security headers, never the JSON envelope.
 */
@ApiTags('viewer')
@PublicRoute()
@Controller('s')
export class ViewerController {
  private readonly logger = new Logger('Viewer');

  constructor(
    private readonly viewer: ViewerService,
    private readonly pages: ViewerPresenter,
    private readonly forms: ViewerFormsService,
    private readonly emailCodes: ViewerEmailCodeService,
    private readonly assets: ViewerAssets,
    private readonly http: ViewerHttp,
    private readonly metrics: Metrics,
    private readonly engagement: VisitEngagement,
    private readonly collections: CollectionViewService,
  ) {}

  /**
   * An engagement beacon of a viewer page (navigator.sendBeacon, urlencoded: v the signed visit,
   * t milliseconds visible and in use, d scroll depth 0..1, c 1 once the end was reached, s the
   * ms each section was on screen as `index:ms,…`, see section-report.ts). A body over
   * MAX_BEACON_BYTES, announced or read (chunked), is refused with 413 before this runs
   * (beacon-body-limit.ts).
   */
  @Post('_beacon')
  @ApiExcludeEndpoint()
  async beacon(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff');
    const outcome = await this.engagement.report(this.http.toViewerRequest(request).form);
    reply.status(outcome === 'malformed' ? 400 : outcome === 'throttled' ? 429 : 204).send();
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
    reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Content-Type', asset.contentType)
      .send(asset.body);
  }

  /**
   * The author's HTML, for the sandboxed frame of an admitted view only, once, in the browser
   * that was shown the page. Opaque origin even when opened directly; framed only by the
   * configured render origin (never one derived from the request's Host header).
   */
  @Get('_render/:ticket')
  @ApiExcludeEndpoint()
  // Served directly by Fastify (viewer-routes.ts), like the views.
  async render(@Param('ticket') ticket: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let frame: { body: Buffer } | null;
    try {
      frame = await this.viewer.frame(this.http.toViewerRequest(request), ticket);
    } catch (error) {
      this.logger.error(
        `${request.method} /s/_render failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      this.http.send(request, reply, this.pages.serverFailure(this.http.toViewerRequest(request), error));
      return;
    }
    if (!frame) {
      this.http.send(request, reply, this.pages.message(this.http.toViewerRequest(request), 410, 'frameExpired'));
      return;
    }
    this.http.sendFrame(request, reply, frame.body);
  }

  @Get('_login')
  @ApiExcludeEndpoint()
  loginForm(@Query('next') next: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.http.send(request, reply, this.forms.loginForm(this.http.toViewerRequest(request), next));
  }

  @Post('_login')
  @ApiExcludeEndpoint()
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.http.answer(request, reply, () => this.forms.login(this.http.toViewerRequest(request)));
  }

  @Get('_email-code')
  @ApiExcludeEndpoint()
  async emailCodeForm(
    @Query('next') next: string | undefined,
    @Query('mode') mode: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () => this.emailCodes.form(this.http.toViewerRequest(request), { next, mode }));
  }

  @Post('_email-code')
  @ApiExcludeEndpoint()
  async emailCodeSend(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.http.answer(request, reply, () => this.emailCodes.send(this.http.toViewerRequest(request)));
  }

  @Post('_email-code/verify')
  @ApiExcludeEndpoint()
  async emailCodeVerify(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.http.answer(request, reply, () => this.emailCodes.verify(this.http.toViewerRequest(request)));
  }

  @Get('_bounce')
  @ApiExcludeEndpoint()
  async bounce(
    @Query('next') next: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () => this.forms.bounce(this.http.toViewerRequest(request), next));
  }

  @Get('_bounce/return')
  @ApiExcludeEndpoint()
  async bounceReturn(
    @Query('ticket') ticket: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () => this.forms.bounceReturn(this.http.toViewerRequest(request), ticket));
  }

  /** The language switch of the viewer's pages: remembers the choice on this origin and shows the page again. */
  @Get('_lang')
  @ApiExcludeEndpoint()
  language(
    @Query('to') to: string | undefined,
    @Query('next') next: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    this.http.send(request, reply, this.forms.language(to, next));
  }

  @Get(':segment/:token/report')
  @ApiOperation({ summary: 'The form for reporting a share link' })
  @ApiOkResponse({ description: 'report form (HTML)' })
  @ApiViewerResponses(404)
  async reportForm(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.http.answer(request, reply, () => this.forms.report(this.http.toViewerRequest(request), segment, token));
  }

  @Post(':segment/:token/report')
  @ApiOperation({ summary: 'Report a share link to its owner (a share_reported event)' })
  @ApiOkResponse({ description: 'report recorded (HTML); form field `reason`' })
  @ApiViewerResponses(400, 403, 404, 429)
  async report(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.http.answer(request, reply, () => this.forms.report(this.http.toViewerRequest(request), segment, token));
  }

  @Get(':segment/:token/d/:fileId')
  @ApiOperation({
    summary: "Open a document of a collection (a folder's share link)",
    description:
      'Within a visit the collection page admitted (a cookie scoped to the link), the document is shown and nothing is ' +
      "counted (the read is logged); otherwise the collection's gate runs first (password, sign-in, reveal, caps: the " +
      "visit counts as the collection's), then the document. A file not in the folder (now) is 404.",
  })
  @ApiOkResponse({ description: "the document, with the collection share's watermark, copy protection and burn-after-read" })
  @ApiViewerResponses(401, 403, 404, 410, 429, 503)
  // GET is served directly by Fastify (viewer-routes.ts), without Nest's per-request pipeline.
  async documentView(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Param('fileId') fileId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.showDocument(request, reply, segment, token, fileId);
  }

  @Post(':segment/:token/d/:fileId')
  @ApiOperation({ summary: "Answer the password, agreement or reveal form of a collection's document link" })
  @ApiOkResponse({
    description:
      'password (`action=password`, `password`), agreement (`action=agree`, `agreement`, `accept`, `name`: the acceptance ' +
      'holds for the whole collection) or reveal (`action=reveal`) form submission',
  })
  @ApiViewerResponses(303, 401, 403, 404, 410, 429, 503)
  async documentSubmit(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Param('fileId') fileId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.showDocument(request, reply, segment, token, fileId);
  }

  @Get(':token/d/:fileId')
  @ApiOperation({ summary: 'Open a document of a collection, legacy link form /s/<tokenOrSlug>/d/<fileId>' })
  @ApiOkResponse({ description: 'legacy link form of a collection document' })
  @ApiViewerResponses(401, 403, 404, 410, 429, 503)
  // GET is served directly by Fastify (viewer-routes.ts), without Nest's per-request pipeline.
  async legacyDocumentView(
    @Param('token') token: string,
    @Param('fileId') fileId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.showDocument(request, reply, null, token, fileId);
  }

  @Post(':token/d/:fileId')
  @ApiOperation({ summary: "Answer the password, agreement or reveal form of a collection's document, legacy link form" })
  @ApiOkResponse({ description: 'form submission on the legacy link form' })
  @ApiViewerResponses(303, 401, 403, 404, 410, 429, 503)
  async legacyDocumentSubmit(
    @Param('token') token: string,
    @Param('fileId') fileId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.showDocument(request, reply, null, token, fileId);
  }

  @Get(':segment/:token')
  @ApiOperation({ summary: 'Open a share link: the document, or the page its policies call for' })
  @ApiOkResponse({
    description:
      'the shared document (a collection: the page listing its documents), the agreement page of a link with an agreement ' +
      '(a form posting `action=agree` with a checkbox `accept` and, when asked for, a text field `name`), or the reveal page ' +
      'of a one-time or burn-after-read link',
  })
  @ApiViewerResponses(401, 403, 404, 410, 429, 503)
  // GET is served directly by Fastify (viewer-routes.ts), without Nest's per-request pipeline.
  view(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.show(request, reply, segment, token);
  }

  @Post(':segment/:token')
  @ApiOperation({ summary: "Answer a share link's password, agreement or reveal form" })
  @ApiOkResponse({
    description:
      'password (`action=password`, `password`), agreement (`action=agree`, the signed `agreement` field of the page, ' +
      '`accept`, and `name` when the agreement asks for one; 303 back to the link once recorded, 400 the page again when ' +
      'the tick or the name is missing, 403 for a form of another link or visitor) or reveal (`action=reveal`) form submission',
  })
  @ApiViewerResponses(303, 401, 403, 404, 410, 429, 503)
  async submit(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.show(request, reply, segment, token);
  }

  @Get(':token')
  @ApiOperation({ summary: 'Open a share link of the legacy form /s/<tokenOrSlug>' })
  @ApiOkResponse({ description: 'legacy link form /s/<tokenOrSlug>' })
  @ApiViewerResponses(401, 403, 404, 410, 429, 503)
  // GET is served directly by Fastify (viewer-routes.ts), without Nest's per-request pipeline.
  legacyView(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.show(request, reply, null, token);
  }

  @Post(':token')
  @ApiOperation({ summary: "Answer a legacy share link's password, agreement or reveal form" })
  @ApiOkResponse({ description: 'form submission on the legacy link form' })
  @ApiViewerResponses(303, 401, 403, 404, 410, 429, 503)
  async legacySubmit(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.show(request, reply, null, token);
  }

  /** A collection's document: its result, as the presenter words it. */
  private async showDocument(
    request: FastifyRequest,
    reply: FastifyReply,
    segment: string | null,
    token: string,
    fileId: string,
  ): Promise<void> {
    await this.http.answer(request, reply, async () => {
      const viewerRequest = this.http.toViewerRequest(request);
      const result = await this.collections.document(viewerRequest, segment, token, fileId);
      this.metrics.recordView(viewOutcomeOf(result));
      return this.pages.view(viewerRequest, result);
    });
  }

  /** A share view: the gate's result, as the presenter words it (not async: see viewer-routes.ts). */
  private show(request: FastifyRequest, reply: FastifyReply, segment: string | null, token: string): Promise<void> {
    return this.http.answer(request, reply, async () => {
      const viewerRequest = this.http.toViewerRequest(request);
      const result = await this.viewer.view(viewerRequest, segment, token);
      this.metrics.recordView(viewOutcomeOf(result));
      return this.pages.view(viewerRequest, result);
    });
  }
}
