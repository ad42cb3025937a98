import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ViewerHttp } from '../viewer/viewer-http.js';
import { RequestPortalService } from './request-portal.service.js';

/** Whether a client asked for the JSON answer (a script's `Accept`), not a browser's page. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return !accept.includes('text/html') && (accept.includes('application/json') || accept.includes('*/*') || accept === '');
}

/**
 * A document request's public pages, `/r/<segment>/<token>`, on the viewer's origin rules: served
 * on RENDER_URL (a request to PUBLIC_URL is sent there), with the viewer's security headers,
 * languages and sign-in. Pages for people, hence outside the OpenAPI document, as the viewer's are.
 */
@ApiExcludeController()
@Controller('r')
export class RequestPageController {
  constructor(
    private readonly portal: RequestPortalService,
    private readonly http: ViewerHttp,
  ) {}

  @Get(':segment/:token')
  async page(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () => this.portal.page(this.http.toViewerRequest(request), segment, token));
  }

  @Post(':segment/:token')
  async upload(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () =>
      this.portal.post(this.http.toViewerRequest(request), request, segment, token, wantsJson(request)),
    );
  }

  @Get(':segment/:token/receipt/:secret')
  async receipt(
    @Param('segment') segment: string,
    @Param('token') token: string,
    @Param('secret') secret: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.http.answer(request, reply, () => this.portal.receipt(this.http.toViewerRequest(request), segment, token, secret));
  }
}
