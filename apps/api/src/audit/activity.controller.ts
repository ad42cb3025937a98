import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { AuditRepository } from './audit.repository.js';
import { AUDIT_PAGE_DEFAULT, AuditPageDto, AuditQueryDto } from './audit.dto.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/audit')
export class ActivityController {
  constructor(private readonly audit: AuditRepository) {}

  @Get()
  @ApiOperation({
    summary:
      "The account's own audit trail (sign-ins, tokens, webhooks, shares, deletions, two factors, sessions), newest first, paged",
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrors(400, 401, 403)
  async list(@CurrentAuth() auth: AuthContext, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    const limit = query.limit ? Number(query.limit) : AUDIT_PAGE_DEFAULT;
    // One more than asked tells whether another page follows.
    const found = await this.audit.page(auth.user.id, limit + 1, query.cursor);
    const page = found.slice(0, limit);
    return {
      events: page.map((event) => ({
        id: event.id,
        action: event.action,
        createdAt: event.createdAt.toISOString(),
        actorId: event.actorId,
        targetId: event.targetId,
        details: event.details,
        ipPrefix: event.ipPrefix,
      })),
      nextCursor: found.length > limit ? page[page.length - 1]!.id : null,
    };
  }
}
