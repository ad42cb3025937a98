import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { RequiresWriteScope } from '../auth/tokens/token-scope.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { MarkNotificationsReadDto, NotificationPageDto, NotificationsQueryDto, UnreadCountDto } from './notification.dto.js';
import type { NotificationReader } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/** The workspace the call acts in, read by the member making the call. */
function readerOf(auth: AuthContext): NotificationReader {
  return { workspaceId: auth.user.id, memberId: auth.actor.id };
}

const LIST_DESCRIPTION =
  "The account's notifications, newest first: `first_visit` and `visit` (shares whose `notify` is `first` or " +
  '`every`), `daily_digest` (shares whose `notify` is `daily`). `unread=true` lists only unread ones; ' +
  '`unreadCount` counts every unread notification of the account. Page with `limit` and `cursor`.';
const READ_DESCRIPTION =
  'Marks the named notifications read, or all of them when `ids` is absent; ids of other accounts change nothing.';

/**
 * The reader's notifications, one handler for both doors: the token API (`sharedown notifications`,
 * MCP clients) and the console's bell, which the contract names `/api/notifications`.
 */
@ApiTags('notifications')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'ApiNotifications', console: 'Notifications' })
@Controller()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get(['api/v1/notifications', 'v1/notifications', 'api/notifications'])
  @ApiOperation({ summary: 'List notifications', description: LIST_DESCRIPTION })
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiErrors(400, 401, 403, 429)
  list(@CurrentAuth() auth: AuthContext, @Query() query: NotificationsQueryDto): Promise<NotificationPageDto> {
    return this.notifications.page(readerOf(auth), query);
  }

  @Post(['api/v1/notifications/read', 'v1/notifications/read', 'api/notifications/read'])
  @RequiresWriteScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark notifications read', description: READ_DESCRIPTION })
  @ApiOkResponse({ type: UnreadCountDto })
  @ApiErrors(400, 401, 403, 429)
  markRead(@CurrentAuth() auth: AuthContext, @Body() body: MarkNotificationsReadDto): Promise<UnreadCountDto> {
    return this.notifications.markRead(readerOf(auth), body.ids);
  }
}
