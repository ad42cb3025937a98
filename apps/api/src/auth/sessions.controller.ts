import { Controller, Delete, Get, Param, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { AppError } from '../common/app-error.js';
import { CurrentAuth, type AuthContext } from './auth-context.js';
import { deviceLabel } from './sessions/device-label.js';
import { OkDto } from './dto/auth.dto.js';
import { EndedSessionsDto, SessionListDto } from './dto/sessions.dto.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { SESSION_COOKIE, SessionsService } from './sessions/sessions.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/auth/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOperation({ summary: "The account's signed-in sessions, this one marked" })
  @ApiOkResponse({ type: SessionListDto })
  @ApiErrors(401, 403)
  async list(@CurrentAuth() auth: AuthContext): Promise<SessionListDto> {
    const sessions = await this.sessions.list(auth.user.id);
    return {
      sessions: sessions.map((session) => ({
        id: session.id,
        current: session.id === auth.sessionId,
        method: session.method,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        userAgent: session.userAgent,
        device: deviceLabel(session.userAgent),
        ipPrefix: session.ipPrefix,
      })),
    };
  }

  @Delete()
  @ApiOperation({ summary: 'End every session of the account except this one' })
  @ApiOkResponse({ type: EndedSessionsDto })
  @ApiErrors(401, 403)
  async endOthers(@CurrentAuth() auth: AuthContext): Promise<EndedSessionsDto> {
    return { ended: await this.sessions.endOthersOnRequest(auth.user.id, auth.sessionId!) };
  }

  @Delete(':id')
  @ApiOperation({ summary: "End one of the account's sessions (this one too: that signs out)" })
  @ApiOkResponse({ type: OkDto })
  @ApiErrors(401, 403, 404)
  async end(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OkDto> {
    if (!UUID.test(id) || !(await this.sessions.endOwn(auth.user.id, id))) throw AppError.notFound('会话不存在');
    if (id === auth.sessionId) reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  }
}
